/*
 * registry.c -- the table of network models, by configuration name.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "netmodel.h"

extern const netm_ops netm_simple;
extern const netm_ops netm_torus;
extern const netm_ops netm_percs;

const netm_ops *const netm_registry[] = {
	&netm_simple,
	&netm_torus,
	&netm_percs,
	NULL
};

const netm_ops *netm_find(const char *name)
{
	for (size_t i = 0; name && netm_registry[i]; i++)
		if (strcmp(netm_registry[i]->name, name) == 0)
			return netm_registry[i];
	return NULL;
}

