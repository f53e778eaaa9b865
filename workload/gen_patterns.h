/*
 * gen_patterns.h -- synthetic communication patterns for `sibyl trace gen'
 * (libsibyl-workload; names gen_, GEN_).
 *
 * A pattern produces, for one rank at a time, that rank's complete SEB
 * sequence.  The generator therefore writes a trace PE-major and needs O(1)
 * memory per rank, whatever the rank count.
 *
 * Sequence numbers are implicit in the format (the n-th send of a PE has
 * number n), so every pattern is built such that the number of sends rank q
 * makes in one iteration, S(q), is a closed-form function of the pattern
 * parameters, and the send at position j of iteration k has sequence number
 * k * S(q) + j.  A receiver computes the (source, seq) of each message it
 * waits for from that formula alone, without looking at any other rank.
 * The builder checks the sender side of the formula as it goes.
 */
#ifndef SIBYL_GEN_PATTERNS_H
#define SIBYL_GEN_PATTERNS_H

#include <stddef.h>
#include <stdint.h>

#include "sibyl_trace.h"

/* Options a pattern accepts besides the common ones (GEN_OPT_* bits). */
#define GEN_OPT_NEIGHBORS 0x1	/* --neighbors K */
#define GEN_OPT_ALLREDUCE 0x2	/* --allreduce */
#define GEN_OPT_GRID 0x4	/* --grid X,Y,Z */
#define GEN_OPT_FACE 0x8	/* --face-bytes S, --block NX,NY,NZ */
#define GEN_OPT_FANOUT 0x10	/* --fanout M */
#define GEN_OPT_PAIRS 0x20	/* --pairs A:B,... */
#define GEN_OPT_NODE_SIZE 0x40	/* --node-size C */
#define GEN_OPT_GROUP 0x80	/* --group G, --order O */
#define GEN_OPT_SHIFT 0x100	/* --shift K */
#define GEN_NOPTS 9		/* number of GEN_OPT_* bits */

/* Orders of the all-to-all (--order); names in gen_order_names[]. */
enum gen_order {
	GEN_ORDER_PAIRWISE,	/* step s: to r+s, from r-s */
	GEN_ORDER_XOR,		/* step s: with r xor s (G = 2^b) */
	GEN_ORDER_PERCS,	/* thesis section 9.1, by nodes of C cores */
	GEN_ORDER_LINEAR,	/* one step, destinations in rank order */
	GEN_NORDERS
};

extern const char *const gen_order_names[GEN_NORDERS];

/* A node-level ping-pong: the first rank of node a pings that of node b. */
typedef struct gen_pair {
	uint32_t a, b;
} gen_pair;

struct gen_pair_end;

/* Parameters of one generation; filled by the caller, completed and
 * validated by the pattern's prepare(). */
typedef struct gen_params {
	uint32_t ranks;
	uint32_t iters;
	uint32_t warmup;	/* SKIP_START on the first SEB of this iteration */
	uint64_t msg_size;	/* bytes per point-to-point message */
	sibt_time compute;	/* compute per iteration (ps), before jitter */
	double jitter;		/* 0..1: compute varies in [1-j, 1+j] x */
	uint64_t seed;
	uint32_t neighbors;	/* kneighbor: neighbours on each side */
	int allreduce;		/* kneighbor: allreduce after each exchange */
	uint32_t grid[3];	/* stencil3d: X, Y, Z; zeros: derive from ranks */
	uint64_t block[3];	/* stencil3d: local block; zeros: not given */
	uint64_t face[3];	/* stencil3d: bytes sent across an x, y, z face */
	uint32_t fanout;	/* random: messages per rank per iteration */
	const gen_pair *pairs;	/* pingpong: node pairs; NULL: (2i, 2i+1) */
	uint32_t npairs;
	uint32_t node_size;	/* pingpong --pairs, alltoall percs: ranks per
				 * node (rank-order placement); 0: not given */
	uint32_t group;		/* alltoall: ranks per group; 0: all */
	int order;		/* alltoall: enum gen_order */
	uint32_t shift;		/* shift: K; 0: not given */
	/* Derived by prepare(); pair_ends freed by gen_params_release(). */
	struct gen_pair_end *pair_ends;
	int map;		/* which permutation (shift, bitrev...) */
	unsigned bits;		/* bitrev, bitcomp: log2 R */
	uint32_t side;		/* transpose: n, R = n * n */
} gen_params;

typedef struct gen_builder gen_builder;

typedef struct gen_pattern {
	const char *name;
	const char *summary;		/* one line, for --list */
	unsigned options;		/* GEN_OPT_* accepted */
	uint64_t default_msg_size;	/* bytes */
	sibt_time default_compute;	/* ps */
	/* Validate gp for this pattern and derive the rest (grid, faces);
	 * on error write a sentence into err and return -1. */
	int (*prepare)(gen_params *gp, char *err, size_t errlen);
	/* S(q): sends rank q makes per iteration (see above). */
	uint64_t (*sends_per_iter)(const gen_params *gp, uint32_t q);
	/* Emit every SEB of rank pe, except the final one (gen_rank adds
	 * it).  Returns 0 or a negative sibt_err from the sink. */
	int (*rank)(gen_builder *b, const gen_params *gp, uint32_t pe);
	/* Closed-form totals over the whole trace. */
	uint64_t (*messages)(const gen_params *gp);
	uint64_t (*sebs)(const gen_params *gp);
} gen_pattern;

/* Free what prepare() allocated in gp (nothing for most patterns). */
void gen_params_release(gen_params *gp);

/* The patterns, NULL-terminated, and lookup by name (NULL: unknown). */
extern const gen_pattern *const gen_patterns[];
const gen_pattern *gen_pattern_find(const char *name);

/* Everything the builder emitted so far. */
typedef struct gen_counts {
	uint64_t sebs;
	uint64_t messages;
	uint64_t bytes;		/* message payload */
	uint64_t compute;	/* sum of SEB durations (ps) */
} gen_counts;

/*
 * The builder turns a pattern's calls into sibt_seb records and hands each
 * finished SEB to add(arg, seb), one at a time; its buffers are reused, so
 * the steady state allocates nothing.
 */
typedef int (*gen_add_fn)(void *arg, const sibt_seb *seb);
gen_builder *gen_builder_new(gen_add_fn add, void *arg);
void gen_builder_free(gen_builder *b);
void gen_builder_counts(const gen_builder *b, gen_counts *out);
/* After gen_rank returned SIBT_EINVAL: which sum of the parameters went
 * out of range, naming the SEB or message (e.g. a rank's compute
 * reaching 2^63-1 ps, the payload beyond 2^64-1 bytes); after
 * SIBT_EFORMAT, which of the pattern's own formulas it broke, with the
 * source line.  The library prints nothing. */
const char *gen_builder_error(const gen_builder *b);

/*
 * Emit the complete SEB sequence of rank pe: the pattern's SEBs followed by
 * a zero-length "finalize" SEB carrying the SKIP_END marker.  Returns 0, a
 * negative sibt_err from the sink, SIBT_EINVAL when a sum of the
 * parameters goes out of range (gen_builder_error says which), or
 * SIBT_EFORMAT when the pattern broke its own sequence-number formula (a
 * bug; gen_builder_error says where).
 */
int gen_rank(gen_builder *b, const gen_pattern *pat, const gen_params *gp,
	     uint32_t pe);

/* The near-cubic X >= Y >= Z factorization of n used for the default grid. */
void gen_grid_factor(uint32_t n, uint32_t dims[3]);

/* ------------------------------------------------ randomness (gen_random.c) */

/* SplitMix64's output function (Steele, Lea and Flood, OOPSLA 2014) of
 * x + 0x9e3779b97f4a7c15: a well-mixed 64-bit hash of x. */
uint64_t gen_splitmix64(uint64_t x);

/* Compute time of rank pe in iteration k: compute * (1 + jitter * u), u
 * uniform in [-1, 1) and a function of (seed, pe, k) only. */
sibt_time gen_jittered(const gen_params *gp, uint32_t pe, uint32_t k);

/* Feistel rounds of the random permutations (even: see perm_enc). */
#define GEN_PERM_ROUNDS 6

/*
 * A pseudo-random permutation of [0, n): an unbalanced Feistel network on
 * [0, 2^bits) with 2^bits < 2n, restricted to [0, n) by cycle walking
 * (re-encrypt until the value falls inside).  Both directions are O(1)
 * expected, so a receiver can invert what a sender computed.
 */
typedef struct gen_perm {
	uint32_t n;
	unsigned lbits, rbits;
	uint64_t key[GEN_PERM_ROUNDS];
} gen_perm;

/* The permutation number m of iteration k, from the seed. */
void gen_perm_init(gen_perm *pm, uint32_t n, uint64_t seed, uint64_t k,
		   uint64_t m);
/* x's image, and the x whose image is y. */
uint32_t gen_perm_fwd(const gen_perm *pm, uint32_t x);
uint32_t gen_perm_inv(const gen_perm *pm, uint32_t y);

#endif /* SIBYL_GEN_PATTERNS_H */
