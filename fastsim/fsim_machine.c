/*
 * fsim_machine.c -- the machine of a run: how many nodes and cores, and
 * which node and core each rank runs on (rank order or a mapping file).
 *
 * fsim_config_resolve() has already turned machine.topology into
 * cores_per_node (with hwloc) and checked every value, so this file only
 * sizes the machine and places the ranks.  A mapping file may have a
 * million lines: it is read in one pass and checked with one sort, never
 * with per-node tables sized by machine.nodes (which may be huge while
 * only a few nodes are used).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"
#include "sib_text.h"

/* How many missing ranks an error names before "and N more". */
#define MAP_MISSING_SHOWN 5

void fsim_machine_free(fsim_machine *m)
{
	if (!m)
		return;
	free(m->node_of);
	free(m->core_of);
	free(m->topology);
	netm_pieces_free(&m->intra_pieces);
	netm_pieces_free(&m->intra_stream);
	free(m);
}

/* One line of a mapping file. */
typedef struct placed {
	uint32_t node, core;      /* core UINT32_MAX: not given */
	uint32_t line, rank;
} placed;

#define NO_CORE UINT32_MAX

static int by_node_line(const void *a, const void *b)
{
	const placed *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

static int by_core_line(const void *a, const void *b)
{
	const placed *x = a, *y = b;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* A whole number < 2^32 at *s; advances *s. */
static int read_u32(const char **s, uint32_t *out)
{
	const char *p = *s;
	uint64_t v = 0;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	*s = p;
	*out = (uint32_t)v;
	return 0;
}

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* Parse "RANK NODE [CORE] [# comment]"; 0 = a rank, 1 = nothing, -1 =
 * malformed. */
static int map_line(const char *s, placed *p)
{
	uint32_t v[3];
	int n = 0;

	while (is_blank(*s))
		s++;
	if (!*s || *s == '#')
		return 1;
	for (; n < 3; n++) {
		if (read_u32(&s, &v[n]))
			return -1;
		if (*s && !is_blank(*s) && *s != '#')
			return -1;
		while (is_blank(*s))
			s++;
		if (!*s || *s == '#')
			break;
	}
	if (n == 3 || n < 1 || (*s && *s != '#'))
		return -1;
	p->rank = v[0];
	p->node = v[1];
	p->core = n == 2 ? v[2] : NO_CORE;
	return 0;
}

/* The ranks of one node (recs[0..n), sorted by line): check its cores and
 * give the ranks without one the node's free cores in file order. */
static int place_node(fsim_machine *m, placed *recs, size_t n, placed *tmp,
		      const char *path, char *err, size_t errlen)
{
	uint32_t node = recs[0].node, cores = m->cores_per_node;
	size_t nexp = 0, u = 0;

	if (n > cores)
		return sib_errf(err, errlen, "%s:%lu: node %lu is over-full: its "
			    "%lu cores (machine.cores_per_node) are taken by "
			    "the ranks on earlier lines, so rank %lu does "
			    "not fit; move ranks to other nodes or raise "
			    "machine.cores_per_node", path,
			    (unsigned long)recs[cores].line,
			    (unsigned long)node, (unsigned long)cores,
			    (unsigned long)recs[cores].rank);
	for (size_t i = 0; i < n; i++)
		if (recs[i].core != NO_CORE)
			tmp[nexp++] = recs[i];
	if (nexp > 1)
		qsort(tmp, nexp, sizeof *tmp, by_core_line);
	for (size_t i = 1; i < nexp; i++)
		if (tmp[i].core == tmp[i - 1].core)
			return sib_errf(err, errlen, "%s:%lu: core %lu of node %lu "
				    "is already taken by rank %lu at line %lu; "
				    "give each rank of a node its own core",
				    path, (unsigned long)tmp[i].line,
				    (unsigned long)tmp[i].core,
				    (unsigned long)node,
				    (unsigned long)tmp[i - 1].rank,
				    (unsigned long)tmp[i - 1].line);
	uint32_t next = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t core = recs[i].core;
		if (core == NO_CORE) {
			/* tmp holds the taken cores in increasing order. */
			while (u < nexp && tmp[u].core <= next) {
				if (tmp[u].core == next)
					next++;
				u++;
			}
			core = next++;
		}
		m->node_of[recs[i].rank] = node;
		m->core_of[recs[i].rank] = core;
	}
	return 0;
}

uint64_t fsim_machine_max_nodes(uint64_t used)
{
	if (used > UINT64_MAX / FSIM_MACHINE_NODE_FACTOR)
		return UINT64_MAX;
	return used * FSIM_MACHINE_NODE_FACTOR > FSIM_MACHINE_FREE_NODES ?
	       used * FSIM_MACHINE_NODE_FACTOR : FSIM_MACHINE_FREE_NODES;
}

/* Refuse a machine of nnodes nodes of which used hold ranks when the
 * others are more than fsim_machine_max_nodes allows; `why' says what
 * made it that large. */
static int check_size(uint64_t nnodes, uint64_t used, const char *why,
		      char *err, size_t errlen)
{
	uint64_t max = fsim_machine_max_nodes(used);
	if (nnodes <= max)
		return 0;
	return sib_errf(err, errlen, "%s a machine of %llu nodes, but the "
		    "ranks use only %llu of them; Sibyl simulates at most "
		    "%llu nodes here (%d times the nodes used, or %d, "
		    "whichever is more): describe a smaller machine", why,
		    (unsigned long long)nnodes, (unsigned long long)used,
		    (unsigned long long)max, FSIM_MACHINE_NODE_FACTOR,
		    FSIM_MACHINE_FREE_NODES);
}

/* A line's placement p, against the trace, the lines before it
 * (line_of) and the machine: 0, or -1 with a message. */
static int check_placed(const fsim_machine *m, const placed *p,
			const uint32_t *line_of, uint64_t nodes,
			const char *path, char *err, size_t errlen)
{
	unsigned long lineno = p->line;
	uint32_t npes = m->npes;

	if (p->rank >= npes)
		return sib_errf(err, errlen, "%s:%lu: rank %lu does not exist: "
				"the trace has %lu ranks, 0 to %lu", path,
				lineno, (unsigned long)p->rank,
				(unsigned long)npes, (unsigned long)npes - 1);
	if (line_of[p->rank])
		return sib_errf(err, errlen, "%s:%lu: rank %lu is placed twice, "
				"here and at line %lu; give each rank one line",
				path, lineno, (unsigned long)p->rank,
				(unsigned long)line_of[p->rank]);
	if (nodes && p->node >= nodes)
		return sib_errf(err, errlen, "%s:%lu: node %lu does not exist: "
				"machine.nodes is %llu (nodes 0 to %llu); raise "
				"machine.nodes or set it to 0 to use as many "
				"nodes as the map names", path, lineno,
				(unsigned long)p->node,
				(unsigned long long)nodes,
				(unsigned long long)nodes - 1);
	if (p->core != NO_CORE && p->core >= m->cores_per_node)
		return sib_errf(err, errlen, "%s:%lu: core %lu does not exist: "
				"machine.cores_per_node is %lu (cores 0 to "
				"%lu)", path, lineno, (unsigned long)p->core,
				(unsigned long)m->cores_per_node,
				(unsigned long)m->cores_per_node - 1);
	return 0;
}

/* The message for the `missing' ranks that no line placed. */
static void missing_ranks(const uint32_t *line_of, uint32_t npes,
			  size_t missing, const char *path, char *err,
			  size_t errlen)
{
	size_t shown = 0;

	sib_errf(err, errlen, "%s: %s", path, missing > 1 ? "ranks" : "rank");
	for (uint32_t r = 0; r < npes && shown < MAP_MISSING_SHOWN; r++)
		if (!line_of[r])
			sib_errcat(err, errlen, "%s%lu", shown++ ? ", " : " ",
				   (unsigned long)r);
	if (missing > shown)
		sib_errcat(err, errlen, " and %lu more",
			   (unsigned long)(missing - shown));
	sib_errcat(err, errlen, " %s missing; the mapping file must place "
		   "every rank from 0 to %lu exactly once",
		   missing > 1 ? "are" : "is", (unsigned long)npes - 1);
}

static int read_map(fsim_machine *m, const char *path, uint64_t nodes,
		    char *err, size_t errlen)
{
	static const sib_lines_limits lim = {
		.what = "mapping file",
		.open_hint = "check the path of machine.map (a relative path "
			     "is taken from the directory of the "
			     "configuration file)",
		.max_line = FSIM_MAP_MAX_LINE,
	};
	uint32_t npes = m->npes;
	uint32_t *line_of = NULL;   /* per rank: its line, 0 = not seen */
	placed *recs = NULL, *tmp = NULL;
	size_t nrec = 0, len;
	char *line;
	unsigned long lineno = 0, maxnode_line = 0;
	uint32_t maxnode = 0;
	uint64_t used = 0;
	int rc = -1, got;
	sib_lines *f;

	if (sib_lines_open(&f, path, &lim, err, errlen))
		return -1;
	line_of = calloc(npes, sizeof *line_of);
	recs = malloc((size_t)npes * sizeof *recs);
	m->node_of = malloc((size_t)npes * sizeof *m->node_of);
	m->core_of = malloc((size_t)npes * sizeof *m->core_of);
	if (!line_of || !recs || !m->node_of || !m->core_of) {
		sib_errf(err, errlen, "out of memory reading the mapping file %s "
		     "for %lu ranks", path, (unsigned long)npes);
		goto out;
	}

	while ((got = sib_lines_next(f, &line, &len, err, errlen)) > 0) {
		placed p;
		lineno = sib_lines_lineno(f);
		int r = map_line(line, &p);
		if (r > 0)
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		if (r < 0) {
			sib_errf(err, errlen, "%s:%lu: expected 'RANK NODE [CORE]' "
			     "(whole numbers, an optional # comment), found "
			     "'%.60s'", path, lineno, line);
			goto out;
		}
		if (lineno > UINT32_MAX) {
			sib_errf(err, errlen, "%s:%lu: too many lines", path,
			     lineno);
			goto out;
		}
		p.line = (uint32_t)lineno;
		if (check_placed(m, &p, line_of, nodes, path, err, errlen))
			goto out;
		line_of[p.rank] = p.line;
		if (p.node > maxnode || !maxnode_line) {
			maxnode = p.node;
			maxnode_line = lineno;
		}
		recs[nrec++] = p;
	}
	if (got < 0)
		goto out;

	if (nrec < npes) {
		missing_ranks(line_of, npes, npes - nrec, path, err, errlen);
		goto out;
	}

	m->nnodes = nodes ? (uint32_t)nodes : maxnode + 1;
	if (!nodes && maxnode == UINT32_MAX) {
		sib_errf(err, errlen, "%s: node %lu is one more than the largest "
		     "node number supported", path, (unsigned long)maxnode);
		goto out;
	}
	qsort(recs, nrec, sizeof *recs, by_node_line);
	tmp = malloc((size_t)(npes < m->cores_per_node ? npes :
			      m->cores_per_node) * sizeof *tmp + 1);
	if (!tmp) {
		sib_errf(err, errlen, "out of memory reading the mapping file %s",
		     path);
		goto out;
	}
	for (size_t i = 0, j; i < nrec; i = j) {
		for (j = i + 1; j < nrec && recs[j].node == recs[i].node; j++)
			;
		if (place_node(m, recs + i, j - i, tmp, path, err, errlen))
			goto out;
		used++;
	}
	if (nodes) {
		char why[64];
		snprintf(why, sizeof why, "machine.nodes = %llu makes",
			 (unsigned long long)nodes);
		if (check_size(nodes, used, why, err, errlen))
			goto out;
	} else {
		char why[4200];
		snprintf(why, sizeof why, "%s:%lu: node %lu makes", path,
			 maxnode_line, (unsigned long)maxnode);
		if (check_size(m->nnodes, used, why, err, errlen))
			goto out;
	}
	rc = 0;

out:
	free(tmp);
	free(recs);
	free(line_of);
	sib_lines_close(f);
	return rc;
}

int fsim_machine_build(fsim_machine **mp, const fsim_config *c,
		       uint32_t npes, char *err, size_t errlen)
{
	const sib_value *nodes = fsim_config_get(c, "machine", "nodes");
	const sib_value *cores = fsim_config_get(c, "machine",
						  "cores_per_node");
	const sib_value *topo = fsim_config_get(c, "machine", "topology");
	const sib_value *map = fsim_config_get(c, "machine", "map");
	const sib_value *lat = fsim_config_get(c, "intranode", "latency");
	const sib_value *bw = fsim_config_get(c, "intranode", "bandwidth");
	const sib_value *pcs = fsim_config_get(c, "intranode", "protocols");
	const sib_value *ser = fsim_config_get(c, "intranode", "serialize");
	const sib_value *strm = fsim_config_get(c, "intranode", "stream");
	fsim_machine *m;

	if (!nodes || !cores || !topo || !map || !lat || !bw || !pcs || !ser ||
	    !strm)
		return sib_errf(err, errlen, "fsim_machine_build: internal error: "
			    "the configuration is not resolved; call "
			    "fsim_config_resolve first");
	if (npes == 0)
		return sib_errf(err, errlen, "the trace has no ranks; there is "
			    "nothing to place on the machine");
	if (!(m = calloc(1, sizeof *m)))
		return sib_errf(err, errlen, "out of memory building the machine");
	m->npes = npes;
	m->cores_per_node = (uint32_t)cores->i;
	m->intra_latency = lat->i;
	m->intra_bandwidth = bw->i;
	m->intra_serialize = ser->i != 0;
	netm_piece turn = { .from = 0, .latency = 0, .bandwidth = bw->i };
	if (netm_pieces_parse(&m->intra_stream, "intranode.stream", strm->s,
			      &turn, err, errlen))
		goto out_with_machine;
	for (uint32_t i = 0; i < m->intra_stream.n; i++) {
		const netm_piece *t = &m->intra_stream.p[i];
		if (t->os || t->os_per_byte || t->or || t->rendezvous) {
			sib_errf(err, errlen, "intranode.stream: range %u: "
				 "only latency and bandwidth apply to a turn "
				 "(os, os_per_byte, or and sync belong in "
				 "intranode.protocols)", i + 1);
			goto out_with_machine;
		}
	}
	netm_piece copy = {
		.from = 0, .latency = lat->i, .bandwidth = bw->i,
		.os = 0, .or = 0,
	};
	if (netm_pieces_parse(&m->intra_pieces, "intranode.protocols",
			      pcs->s, &copy, err, errlen))
		goto out_with_machine;
	if (topo->s && topo->s[0] && !(m->topology = strdup(topo->s))) {
		sib_errf(err, errlen, "out of memory building the machine");
		goto out_with_machine;
	}

	uint64_t n = (uint64_t)nodes->i, ncores = m->cores_per_node;
	if (n && n * ncores < npes) {
		sib_errf(err, errlen, "the machine has %llu cores (%llu nodes of "
		     "%llu) for %lu ranks: raise machine.nodes or "
		     "machine.cores_per_node, or set machine.nodes to 0",
		     (unsigned long long)(n * ncores), (unsigned long long)n,
		     (unsigned long long)ncores, (unsigned long)npes);
		goto out_with_machine;
	}
	if (map->s && map->s[0]) {
		if (read_map(m, map->s, n, err, errlen))
			goto out_with_machine;
	} else {
		uint64_t used = (npes + ncores - 1) / ncores;
		m->nnodes = n ? (uint32_t)n : (uint32_t)used;
		char why[64];
		snprintf(why, sizeof why, "machine.nodes = %llu makes",
			 (unsigned long long)n);
		if (check_size(n, used, why, err, errlen))
			goto out_with_machine;
	}
	*mp = m;
	return 0;

out_with_machine:
	fsim_machine_free(m);
	return -1;
}
