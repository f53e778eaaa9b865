/*
 * map_place.h -- rank-to-node mappings: where each of R ranks runs on a
 * machine of N nodes of C cores, in one of the orders of `sibyl map'
 * (rank order, round-robin, seeded random, hierarchical 3D blocking of
 * a process grid).  docs/mapping.md gives the formula of every order.
 *
 * A placement is computed whole, in memory (8 bytes per rank), so that a
 * caller can refuse a request before it writes anything.  Functions that
 * can fail take a caller's buffer and return 0, or SIB_ECONFIG (the
 * request does not fit: a grid that is not made of the blocks, say) or
 * SIB_EFAIL (out of memory) with one sentence in the buffer
 * (base/sib_err.h).  The sentences name the options of `sibyl map'
 * (--grid, --block, --cores-per-node), the only way users give a spec.
 */
#ifndef SIBYL_MAP_PLACE_H
#define SIBYL_MAP_PLACE_H

#include <stddef.h>
#include <stdint.h>

/* Levels of blocks: node, drawer, supernode, ... */
#define MAP_MAX_LEVELS 8

enum map_order { MAP_ORDER_RANK, MAP_ORDER_RR, MAP_ORDER_RANDOM,
		 MAP_ORDER_BLOCKED };

/* An order as the user names it; the blocked presets fix the blocks. */
typedef struct map_order_def {
	const char *name;
	enum map_order order;
	const char *blocks;	/* preset of --block, "B1:B2..."; or NULL */
} map_order_def;

/* The orders, terminated by a NULL name; the first is the default. */
extern const map_order_def map_orders[];
/* The order called name, or NULL. */
const map_order_def *map_order_find(const char *name);

/* What to place. */
typedef struct map_spec {
	uint64_t ranks, cores, nodes;	/* R; C per node; N */
	const map_order_def *order;
	uint64_t seed;			/* MAP_ORDER_RANDOM */
	/* MAP_ORDER_BLOCKED: the process grid X, Y, Z (rank = x + X*(y +
	 * Y*z)), and per level the block BX, BY, BZ it groups. */
	uint64_t grid[3];
	uint64_t block[MAP_MAX_LEVELS][3];
	int nlevels;
} map_spec;

/* Per rank, its node and core. */
typedef struct map_placement {
	uint32_t n;
	uint32_t *node_of, *core_of;
} map_placement;

/* Ranks per used node. */
typedef struct map_node_stats {
	uint64_t used;		/* nodes that hold a rank */
	uint64_t min, max;	/* ranks on the least and most loaded */
} map_node_stats;

/*
 * Complete and check the grid and blocks of a blocked order: without
 * grid_given, the grid is that of `sibyl trace gen -p stencil3d' for R
 * ranks (gen_grid_factor).  The node block must hold C ranks, each block
 * must be made of the one below it, and the grid of the top one.
 */
int map_blocked_check(map_spec *q, int grid_given, char *err,
		      size_t errlen);

/* The node and core of rank r in a checked blocked spec. */
void map_blocked_place(const map_spec *q, uint64_t r, uint32_t *node,
		       uint32_t *core);

/*
 * Place every rank of q (ranks <= nodes * cores; a blocked order checked
 * by map_blocked_check).  On success pl owns two arrays that
 * map_placement_free releases; on failure it owns nothing.
 */
int map_place(const map_spec *q, map_placement *pl, char *err,
	      size_t errlen);
void map_placement_free(map_placement *pl);

/* Nodes used and ranks per used node, from a per-rank node array. */
int map_count_nodes(const uint32_t *node_of, uint32_t n, map_node_stats *st,
		    char *err, size_t errlen);

/* "4x4x2" of a triple, into buf; returns buf. */
const char *map_fmt_triple(char *buf, size_t len, const uint64_t v[3]);

#endif /* SIBYL_MAP_PLACE_H */
