/*
 * fsim_outputs.c -- the registry of timeline writers, looked up by name;
 * each writer lives in its own out_<name>.c.
 */
#include "config.h"

#include <string.h>

#include "fsim.h"

const fsim_out_ops *const fsim_outputs[] = {
	&fsim_out_projections,
	&fsim_out_chrome,
	NULL
};

const fsim_out_ops *fsim_output_find(const char *name)
{
	if (!name)
		return NULL;
	for (const fsim_out_ops *const *o = fsim_outputs; *o; o++)
		if (strcmp((*o)->name, name) == 0)
			return *o;
	return NULL;
}
