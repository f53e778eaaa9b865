/*
 * fsim_text.h -- small helpers the machine-description and rule parsers
 * of fastsim share (internal).
 */
#ifndef SIBYL_FSIM_TEXT_H
#define SIBYL_FSIM_TEXT_H

/* isspace() without the locale: configuration syntax is ASCII. */
static inline int is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
	       ch == '\f' || ch == '\v';
}

/* Greatest common divisor, for reducing exact ratios. */
static inline unsigned __int128 gcd128(unsigned __int128 a,
				       unsigned __int128 b)
{
	while (b) {
		unsigned __int128 t = a % b;
		a = b;
		b = t;
	}
	return a;
}

#endif /* SIBYL_FSIM_TEXT_H */
