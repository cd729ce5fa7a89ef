/*
 * taintprof_mpi.c: the MPI interception library (PMPI) of taintprof.
 *
 * taintprof-cc compiles this file against the program's own <mpi.h> when it links an
 * MPI program (it sees -lmpi or -lmpich on the link line, as mpicc passes them), so
 * any MPI works unmodified, and links the object into the executable: its MPI_*
 * definitions take precedence over the MPI library's, and call the PMPI_* entry points.
 * It is never instrumented itself. What it does:
 *
 *  1. The implicit parameter p. MPI_Comm_size(MPI_COMM_WORLD, &size) labels `size`
 *     with p (the runtime registers it: __tp_implicit_p, rt/src/mpi.rs). The size of
 *     any other communicator but MPI_COMM_SELF gets p's label too (a row communicator
 *     of a process grid has sqrt(p) members); MPI_Comm_rank clears its output's labels
 *     (a rank is an identity, not a magnitude).
 *
 *  2. Labels cross MPI calls as data does. Every communicator the program uses has a
 *     *shadow communicator*, a duplicate made when the communicator is made
 *     (MPI_Init, MPI_Comm_dup/split/create, Cart/Graph creation), on which the labels
 *     travel in messages of their own (MPI_UNSIGNED_SHORT), so that they never match
 *     the program's receives:
 *
 *       - point-to-point: after the data, the sender posts a label message (MPI_Isend
 *         of a private copy, completed later: a blocking send could deadlock where the
 *         program relies on buffering) with the data's tag to the same destination;
 *         the receiver, once its receive completed (MPI_Recv, or MPI_Wait and MPI_Test of an
 *         MPI_Irecv), receives the label message from the source and tag its status
 *         names (MPI_Mprobe + MPI_Mrecv, safe with threads). Messages between a pair
 *         with one tag are not overtaken, so label messages pair with data messages
 *         in order. A label message is [0, L] (every element has label L, the common
 *         case) or [1, l0, l1, ...] (one label per element of the datatype);
 *       - collectives: the same collective runs on the shadow communicator over one
 *         label per element (MPI_Bcast, reductions with MPI_BOR: a reduced element
 *         carries the labels of every contribution) or one label per block (gather,
 *         scatter, all-to-all: a block keeps the union of its sender's labels);
 *         non-blocking collectives run the label collective at once, blocking (every
 *         rank starts collectives in the same order) and label the receive buffer
 *         before the operation completes;
 *       - an element's label is the union of the labels of the bytes in its true
 *         extent; received elements get the label on all of their bytes (replacing
 *         what was there: the receive replaced the data too).
 *
 *  Persistent requests (MPI_Send_init, MPI_Recv_init, MPI_Start*) and matched probes
 *  (MPI_Mprobe/Improbe with MPI_Mrecv/Imrecv) are covered like their plain forms.
 *
 *  One-sided communication: MPI_Put, MPI_Get and MPI_Accumulate of contiguous data of
 *  one predefined type on windows made by MPI_Win_create or MPI_Win_allocate, under
 *  every synchronisation (fence, lock/unlock, flush, post/start/complete/wait): see the
 *  last section.
 *
 *  Not covered (labels do not cross; the data does, unchanged): one-sided operations
 *  with derived datatypes, MPI_Get_accumulate, dynamic and shared-memory windows,
 *  MPI_Comm_idup, file I/O, Fortran bindings, and
 *  communicators made by routines not listed above (counted; the report's stderr note
 *  at MPI_Finalize names how many calls could not carry labels).
 *
 * The cost side (an MPI call in a loop is part of the loop's cost, with its message
 * count and p as parameters) is the routine database, rt/routines.txt: the pass, not
 * this file.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint16_t tp_label;

/* The runtime's interface (rt/src/shadow.rs, rt/src/mpi.rs). */
extern tp_label __tp_shadow_union(const void *p, size_t n);
extern tp_label *__tp_shadow_ptr(const void *p);
extern void __tp_shadow_set(void *dst, tp_label label, size_t n);
extern tp_label __tp_implicit_p(void *size, size_t n);
extern uint16_t __tp_mpi_size_label;
extern tp_label __tp_label_params(tp_label label);
extern const char *__tp_param_name(int j, size_t *len);
extern tp_label __tp_param_intern(const char *name, size_t len);

static pthread_mutex_t tp_lock = PTHREAD_MUTEX_INITIALIZER;

/* Calls that moved data without labels (no shadow communicator known). */
static unsigned long tp_unlabelled;

/* The growable arrays of this file (communicators, pending sends, receives, persistent
 * requests, windows, their buffers and gets): `TP_ROOM(items, n, cap)` makes room for
 * one more element in `items`, which holds `n` of `cap` (doubling it when full), and is
 * 1, or 0 when out of memory. Callers hold `tp_lock`. */
static void *tp_grow(void *items, size_t *cap, size_t size) {
    size_t c = *cap ? 2 * *cap : 16;
    void *p = realloc(items, c * size);
    if (p)
        *cap = c;
    return p;
}
#define TP_ROOM(items, n, cap)                                                                 \
    ({                                                                                         \
        int ok_ = (n) < (cap);                                                                 \
        if (!ok_) {                                                                            \
            void *p_ = tp_grow((items), &(cap), sizeof *(items));                              \
            if (p_) {                                                                          \
                (items) = p_;                                                                  \
                ok_ = 1;                                                                       \
            }                                                                                  \
        }                                                                                      \
        ok_;                                                                                   \
    })

/* ---------------------------------------------------------------------------------
 * Shadow communicators.
 * ------------------------------------------------------------------------------- */

struct tp_comm {
    MPI_Comm comm, shadow;
};
static struct tp_comm *tp_comms;
static size_t tp_ncomms, tp_capcomms;

static MPI_Comm tp_shadow_of(MPI_Comm c) {
    MPI_Comm s = MPI_COMM_NULL;
    if (c == MPI_COMM_NULL)
        return s;
    pthread_mutex_lock(&tp_lock);
    for (size_t i = 0; i < tp_ncomms; i++)
        if (tp_comms[i].comm == c) {
            s = tp_comms[i].shadow;
            break;
        }
    if (s == MPI_COMM_NULL)
        tp_unlabelled++;
    pthread_mutex_unlock(&tp_lock);
    return s;
}

/* Collective over `c` (called where the program's creation of `c` was collective). */
static void tp_add_comm(MPI_Comm c) {
    MPI_Comm s;
    if (c == MPI_COMM_NULL || PMPI_Comm_dup(c, &s) != MPI_SUCCESS)
        return;
    pthread_mutex_lock(&tp_lock);
    if (!TP_ROOM(tp_comms, tp_ncomms, tp_capcomms)) {
        pthread_mutex_unlock(&tp_lock);
        PMPI_Comm_free(&s);
        return;
    }
    tp_comms[tp_ncomms].comm = c;
    tp_comms[tp_ncomms].shadow = s;
    tp_ncomms++;
    pthread_mutex_unlock(&tp_lock);
}

static void tp_remove_comm(MPI_Comm c) {
    MPI_Comm s = MPI_COMM_NULL;
    pthread_mutex_lock(&tp_lock);
    for (size_t i = 0; i < tp_ncomms; i++)
        if (tp_comms[i].comm == c) {
            s = tp_comms[i].shadow;
            tp_comms[i] = tp_comms[--tp_ncomms];
            break;
        }
    pthread_mutex_unlock(&tp_lock);
    if (s != MPI_COMM_NULL)
        PMPI_Comm_free(&s);
}

/* ---------------------------------------------------------------------------------
 * Labels of typed buffers.
 * ------------------------------------------------------------------------------- */

struct tp_geom {
    MPI_Aint extent, tlb, textent;
};

static struct tp_geom tp_geom_of(MPI_Datatype t) {
    struct tp_geom g = {0, 0, 0};
    MPI_Aint lb;
    if (t == MPI_DATATYPE_NULL)
        return g;
    PMPI_Type_get_extent(t, &lb, &g.extent);
    PMPI_Type_get_true_extent(t, &g.tlb, &g.textent);
    return g;
}

static const char *tp_elem(const void *buf, long i, const struct tp_geom *g) {
    return (const char *)buf + i * g->extent + g->tlb;
}

static tp_label tp_elem_label(const void *buf, long i, const struct tp_geom *g) {
    if (g->textent <= 0)
        return 0;
    /* Read in place: one call per element rather than one per byte range's hook. */
    const tp_label *sh = __tp_shadow_ptr(tp_elem(buf, i, g));
    tp_label l = 0;
    for (MPI_Aint k = 0; k < g->textent; k++)
        l |= sh[k];
    return l;
}

/* Union of the labels of `count` elements. */
static tp_label tp_span_label(const void *buf, long count, const struct tp_geom *g) {
    if (count <= 0 || g->textent <= 0)
        return 0;
    if (g->extent == g->textent)
        return __tp_shadow_union(tp_elem(buf, 0, g), (size_t)(count * g->extent));
    tp_label l = 0;
    for (long i = 0; i < count; i++)
        l |= tp_elem_label(buf, i, g);
    return l;
}

/* Gives `count` elements label `l`. */
static void tp_span_set(void *buf, long count, const struct tp_geom *g, tp_label l) {
    if (count <= 0 || g->textent <= 0)
        return;
    if (g->extent == g->textent) {
        __tp_shadow_set((void *)tp_elem(buf, 0, g), l, (size_t)(count * g->extent));
        return;
    }
    for (long i = 0; i < count; i++)
        __tp_shadow_set((void *)tp_elem(buf, i, g), l, (size_t)g->textent);
}

/* One label per element (malloc'd; NULL for none or out of memory). */
static tp_label *tp_elem_labels(const void *buf, long count, MPI_Datatype t) {
    if (count <= 0)
        return NULL;
    struct tp_geom g = tp_geom_of(t);
    tp_label *v = malloc((size_t)count * sizeof *v);
    if (!v)
        return NULL;
    for (long i = 0; i < count; i++)
        v[i] = tp_elem_label(buf, i, &g);
    return v;
}

static void tp_apply_elem_labels(void *buf, long count, MPI_Datatype t, const tp_label *v) {
    struct tp_geom g = tp_geom_of(t);
    if (g.textent <= 0)
        return;
    for (long i = 0; i < count; i++)
        __tp_shadow_set((void *)tp_elem(buf, i, &g), v[i], (size_t)g.textent);
}

/* Labels on the wire. A label is a bit of the sending process's registry, and rank 0
 * may have registered parameters the others never saw, so labels travel as parameter
 * bits (tp_wire: one bit per parameter, the control-flow split folded in) with a *name
 * table* for the bits used: entries [j, len, name bytes packed two per word]. The
 * receiver maps each name to its own bit (__tp_param_intern registers it if new). */

static tp_label tp_wire(tp_label l) {
    return l ? __tp_label_params(l) : 0;
}

/* Writes the name table of the parameters in `bits` into `out` (if not NULL); returns
 * its length in words. */
static int tp_table(tp_label bits, tp_label *out) {
    int w = 0;
    for (int j = 0; j < 16; j++) {
        if (!(bits & (1u << j)))
            continue;
        size_t len = 0;
        const char *name = __tp_param_name(j, &len);
        if (!name || len == 0 || len > 255)
            continue;
        if (out) {
            out[w] = (tp_label)j;
            out[w + 1] = (tp_label)len;
            memset(out + w + 2, 0, (len + 1) / 2 * sizeof *out);
            memcpy(out + w + 2, name, len);
        }
        w += 2 + (int)((len + 1) / 2);
    }
    return w;
}

/* From a name table: map[j] = this process's label of the sender's parameter j. */
static void tp_table_map(const tp_label *t, int words, tp_label map[16]) {
    memset(map, 0, 16 * sizeof *map);
    for (int w = 0; w + 2 <= words;) {
        int j = t[w], len = t[w + 1], n = 2 + (len + 1) / 2;
        if (w + n > words)
            break;
        if (j < 16 && len > 0)
            map[j] = __tp_param_intern((const char *)(t + w + 2), (size_t)len);
        w += n;
    }
}

static tp_label tp_map(tp_label bits, const tp_label map[16]) {
    tp_label l = 0;
    for (int j = 0; bits && j < 16; j++)
        if (bits & (1u << j))
            l |= map[j];
    return l;
}

/* The label message of `count` elements: [mode, T, name table (T words), labels], mode 0
 * with one label for every element (the common case), mode 1 with one per element. */
static tp_label *tp_pack(const void *buf, int count, MPI_Datatype t, int *len) {
    struct tp_geom g = tp_geom_of(t);
    tp_label *v = NULL, all = 0;
    int uniform = 1;
    if (count > 0 && g.textent > 0) {
        v = malloc((size_t)count * sizeof *v);
        for (int i = 0; i < count; i++) {
            tp_label l = tp_wire(tp_elem_label(buf, i, &g));
            if (v)
                v[i] = l;
            if (i > 0 && l != all)
                uniform = 0;
            all |= l;
        }
    }
    if (!v)
        uniform = 1;
    int tw = tp_table(all, NULL);
    int n = 2 + tw + (uniform ? 1 : count);
    tp_label *m = malloc((size_t)n * sizeof *m);
    if (m) {
        m[0] = uniform ? 0 : 1;
        m[1] = (tp_label)tw;
        tp_table(all, m + 2);
        if (uniform)
            m[2 + tw] = all;
        else
            memcpy(m + 2 + tw, v, (size_t)count * sizeof *v);
        *len = n;
    }
    free(v);
    return m;
}

/* Applies label message `m` (`len` words) to the `count` elements received. */
static void tp_unpack(void *buf, int count, MPI_Datatype t, const tp_label *m, int len) {
    if (len < 3 || count <= 0 || m[1] > len - 2)
        return;
    struct tp_geom g = tp_geom_of(t);
    tp_label map[16];
    int tw = m[1];
    tp_table_map(m + 2, tw, map);
    const tp_label *v = m + 2 + tw;
    int nv = len - 2 - tw;
    if (m[0] == 1 && nv >= count) {
        for (int i = 0; i < count; i++)
            if (g.textent > 0)
                __tp_shadow_set((void *)tp_elem(buf, i, &g), tp_map(v[i], map), (size_t)g.textent);
        return;
    }
    tp_label l = 0;
    for (int i = 0; i < nv; i++)
        l |= v[i];
    tp_span_set(buf, count, &g, tp_map(l, map));
}

/* Collectives combine labels of several processes, so they first agree on a common
 * numbering: every process sends the names of the parameters its labels hold
 * (allgather of name tables), the union in rank order numbers them (at most 16), and
 * labels are translated into that numbering before the collective and back after. */
struct tp_canon {
    tp_label fwd[16];  /* this process's parameter j -> common bit */
    tp_label back[16]; /* common bit c -> this process's label (0: not looked up yet) */
    int known[16];
    const tp_label *name[16]; /* name of common bit c (inside `tables`) */
    int namelen[16];
    int n;
    tp_label *tables;
};

static void tp_canon_begin(struct tp_canon *c, MPI_Comm s, tp_label mine) {
    memset(c, 0, sizeof *c);
    int size = 0;
    PMPI_Comm_size(s, &size);
    int w = tp_table(mine, NULL);
    tp_label *my = malloc((size_t)(w > 0 ? w : 1) * sizeof *my);
    int *lens = malloc((size_t)size * sizeof *lens), *displs = malloc((size_t)size * sizeof *displs);
    if (!my || !lens || !displs) {
        /* Every process must still take part. */
        w = 0;
    } else {
        tp_table(mine, my);
    }
    int zero = 0, total = 0;
    PMPI_Allgather(&w, 1, MPI_INT, lens ? lens : &zero, lens ? 1 : 0, MPI_INT, s);
    for (int r = 0; lens && displs && r < size; r++) {
        displs[r] = total;
        total += lens[r];
    }
    c->tables = malloc((size_t)(total > 0 ? total : 1) * sizeof *c->tables);
    tp_label dummy = 0;
    PMPI_Allgatherv(my ? my : &dummy, w, MPI_UNSIGNED_SHORT, c->tables ? c->tables : &dummy,
                    lens, displs, MPI_UNSIGNED_SHORT, s);
    int me = 0;
    PMPI_Comm_rank(s, &me);
    for (int r = 0; c->tables && lens && r < size; r++) {
        const tp_label *t = c->tables + displs[r];
        for (int k = 0; k + 2 <= lens[r];) {
            int j = t[k], len = t[k + 1], n = 2 + (len + 1) / 2, at = -1;
            if (k + n > lens[r])
                break;
            for (int q = 0; q < c->n; q++)
                if (c->namelen[q] == len && memcmp(c->name[q], t + k + 2, (size_t)len) == 0)
                    at = q;
            if (at < 0 && c->n < 16) {
                at = c->n++;
                c->name[at] = t + k + 2;
                c->namelen[at] = len;
            }
            if (r == me && at >= 0 && j < 16)
                c->fwd[j] = (tp_label)(1u << at);
            k += n;
        }
    }
    free(my);
    free(lens);
    free(displs);
}

static tp_label tp_canon_to(const struct tp_canon *c, tp_label local) {
    return tp_map(tp_wire(local), c->fwd);
}

static tp_label tp_canon_from(struct tp_canon *c, tp_label common) {
    tp_label l = 0;
    for (int q = 0; common && q < c->n; q++)
        if (common & (1u << q)) {
            if (!c->known[q]) {
                c->back[q] = __tp_param_intern((const char *)c->name[q], (size_t)c->namelen[q]);
                c->known[q] = 1;
            }
            l |= c->back[q];
        }
    return l;
}

static void tp_canon_end(struct tp_canon *c) {
    free(c->tables);
    c->tables = NULL;
}

/* Collective: agrees on the common numbering for the local labels `v` (NULL: this
 * process contributes none) and translates them into it. */
static void tp_common_begin(struct tp_canon *c, MPI_Comm s, tp_label *v, long n) {
    tp_label u = 0;
    for (long i = 0; v && i < n; i++)
        u |= tp_wire(v[i]);
    tp_canon_begin(c, s, u);
    for (long i = 0; v && i < n; i++)
        v[i] = tp_canon_to(c, v[i]);
}

/* Translates common labels `v` back into local ones and ends the numbering. */
static void tp_common_end(struct tp_canon *c, tp_label *v, long n) {
    for (long i = 0; v && i < n; i++)
        v[i] = tp_canon_from(c, v[i]);
    tp_canon_end(c);
}

/* ---------------------------------------------------------------------------------
 * Point-to-point: label messages.
 * ------------------------------------------------------------------------------- */

struct tp_pending {
    MPI_Request req;
    tp_label *msg;
};
static struct tp_pending *tp_sends;
static size_t tp_nsends, tp_capsends;

/* Frees the label messages whose sends completed. */
static void tp_progress(void) {
    pthread_mutex_lock(&tp_lock);
    for (size_t i = 0; i < tp_nsends;) {
        int done = 0;
        PMPI_Test(&tp_sends[i].req, &done, MPI_STATUS_IGNORE);
        if (done) {
            free(tp_sends[i].msg);
            tp_sends[i] = tp_sends[--tp_nsends];
        } else {
            i++;
        }
    }
    pthread_mutex_unlock(&tp_lock);
}

static void tp_send_labels(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                           MPI_Comm comm) {
    if (dest == MPI_PROC_NULL)
        return;
    MPI_Comm s = tp_shadow_of(comm);
    if (s == MPI_COMM_NULL)
        return;
    int len = 0;
    tp_label *m = tp_pack(buf, count, t, &len);
    if (!m)
        return;
    MPI_Request r;
    if (PMPI_Isend(m, len, MPI_UNSIGNED_SHORT, dest, tag, s, &r) != MPI_SUCCESS) {
        free(m);
        return;
    }
    tp_progress();
    pthread_mutex_lock(&tp_lock);
    if (TP_ROOM(tp_sends, tp_nsends, tp_capsends)) {
        tp_sends[tp_nsends].req = r;
        tp_sends[tp_nsends].msg = m;
        tp_nsends++;
        pthread_mutex_unlock(&tp_lock);
    } else {
        pthread_mutex_unlock(&tp_lock);
        PMPI_Wait(&r, MPI_STATUS_IGNORE);
        free(m);
    }
}

/* After a receive into `buf` completed with status `st`: receive its label message. */
static void tp_recv_labels(void *buf, int count, MPI_Datatype t, MPI_Comm comm,
                           const MPI_Status *st) {
    if (st->MPI_SOURCE == MPI_PROC_NULL || st->MPI_SOURCE == MPI_ANY_SOURCE)
        return;
    MPI_Comm s = tp_shadow_of(comm);
    if (s == MPI_COMM_NULL)
        return;
    MPI_Message msg;
    MPI_Status ls;
    if (PMPI_Mprobe(st->MPI_SOURCE, st->MPI_TAG, s, &msg, &ls) != MPI_SUCCESS)
        return;
    int len = 0;
    PMPI_Get_count(&ls, MPI_UNSIGNED_SHORT, &len);
    tp_label two[2];
    tp_label *m = len <= 2 ? two : malloc((size_t)len * sizeof *m);
    if (!m) {
        /* Still take the message off the queue, or the next one would pair with it. */
        tp_label *scratch = malloc((size_t)len * sizeof *scratch);
        PMPI_Mrecv(scratch, len, MPI_UNSIGNED_SHORT, &msg, MPI_STATUS_IGNORE);
        free(scratch);
        return;
    }
    PMPI_Mrecv(m, len, MPI_UNSIGNED_SHORT, &msg, MPI_STATUS_IGNORE);
    int got = count;
    int n = MPI_UNDEFINED;
    if (PMPI_Get_count(st, t, &n) == MPI_SUCCESS && n != MPI_UNDEFINED && n < count)
        got = n;
    tp_unpack(buf, got, t, m, len);
    if (m != two)
        free(m);
}

/* Receives posted with MPI_Irecv, waiting for their label messages. */
struct tp_recv {
    MPI_Request req;
    void *buf;
    int count;
    MPI_Datatype type;
    MPI_Comm comm;
    unsigned long seq;
};
static struct tp_recv *tp_recvs;
static size_t tp_nrecvs, tp_caprecvs;
static unsigned long tp_seq;

static void tp_track_recv(MPI_Request r, void *buf, int count, MPI_Datatype t, MPI_Comm comm) {
    pthread_mutex_lock(&tp_lock);
    if (!TP_ROOM(tp_recvs, tp_nrecvs, tp_caprecvs)) {
        pthread_mutex_unlock(&tp_lock);
        return;
    }
    struct tp_recv *e = &tp_recvs[tp_nrecvs++];
    e->req = r;
    e->buf = buf;
    e->count = count;
    e->type = t;
    e->comm = comm;
    e->seq = tp_seq++;
    pthread_mutex_unlock(&tp_lock);
}

/* Removes the tracked receive of request `r` into `*out`; 0 if `r` is not one. */
static int tp_take_recv(MPI_Request r, struct tp_recv *out) {
    int found = 0;
    if (r == MPI_REQUEST_NULL)
        return 0;
    pthread_mutex_lock(&tp_lock);
    for (size_t i = 0; i < tp_nrecvs; i++)
        if (tp_recvs[i].req == r) {
            *out = tp_recvs[i];
            tp_recvs[i] = tp_recvs[--tp_nrecvs];
            found = 1;
            break;
        }
    pthread_mutex_unlock(&tp_lock);
    return found;
}

/* The requests `saved[idx[k]]` completed with statuses `st[k]` (k < n): receive the
 * label messages of those that were receives, in the order they were posted (the
 * order their data messages matched). */
static void tp_completed(const MPI_Request *saved, const int *idx, const MPI_Status *st, int n) {
    struct item {
        struct tp_recv r;
        const MPI_Status *st;
    } small[16], *items = n <= 16 ? small : malloc((size_t)n * sizeof *items);
    if (!items)
        return;
    int m = 0;
    for (int k = 0; k < n; k++)
        if (tp_take_recv(saved[idx ? idx[k] : k], &items[m].r)) {
            items[m].st = &st[k];
            m++;
        }
    for (int a = 1; a < m; a++)
        for (int b = a; b > 0 && items[b - 1].r.seq > items[b].r.seq; b--) {
            struct item x = items[b];
            items[b] = items[b - 1];
            items[b - 1] = x;
        }
    for (int k = 0; k < m; k++)
        tp_recv_labels(items[k].r.buf, items[k].r.count, items[k].r.type, items[k].r.comm,
                       items[k].st);
    if (items != small)
        free(items);
}

/* ---------------------------------------------------------------------------------
 * Set-up, communicators, p.
 * ------------------------------------------------------------------------------- */

static void tp_after_init(void) {
    tp_add_comm(MPI_COMM_WORLD);
    tp_add_comm(MPI_COMM_SELF);
}

int MPI_Init(int *argc, char ***argv) {
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        tp_after_init();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) {
        tp_after_init();
        __tp_shadow_set(provided, 0, sizeof *provided);
    }
    return rc;
}

int MPI_Finalize(void) {
    pthread_mutex_lock(&tp_lock);
    for (size_t i = 0; i < tp_nsends; i++) {
        PMPI_Wait(&tp_sends[i].req, MPI_STATUS_IGNORE);
        free(tp_sends[i].msg);
    }
    tp_nsends = 0;
    unsigned long lost = tp_unlabelled;
    pthread_mutex_unlock(&tp_lock);
    while (tp_ncomms > 0)
        tp_remove_comm(tp_comms[tp_ncomms - 1].comm);
    if (lost > 0 && getenv("TAINTPROF_QUIET") == NULL)
        fprintf(stderr,
                "taintprof: note: %lu MPI calls on communicators made by routines taintprof does "
                "not intercept moved data without labels\n",
                lost);
    return PMPI_Finalize();
}

int MPI_Comm_size(MPI_Comm comm, int *size) {
    int rc = PMPI_Comm_size(comm, size);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm == MPI_COMM_WORLD)
        __tp_implicit_p(size, sizeof *size);
    else if (comm == MPI_COMM_SELF)
        __tp_shadow_set(size, 0, sizeof *size);
    else
        __tp_shadow_set(size, __tp_mpi_size_label, sizeof *size);
    return rc;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank) {
    int rc = PMPI_Comm_rank(comm, rank);
    if (rc == MPI_SUCCESS)
        __tp_shadow_set(rank, 0, sizeof *rank);
    return rc;
}

#define TP_NEWCOMM(call, out)                                                                  \
    int rc = call;                                                                             \
    if (rc == MPI_SUCCESS)                                                                     \
        tp_add_comm(*(out));                                                                   \
    return rc;

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
    TP_NEWCOMM(PMPI_Comm_dup(comm, newcomm), newcomm)
}
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) {
    TP_NEWCOMM(PMPI_Comm_dup_with_info(comm, info, newcomm), newcomm)
}
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
    TP_NEWCOMM(PMPI_Comm_split(comm, color, key, newcomm), newcomm)
}
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm *newcomm) {
    TP_NEWCOMM(PMPI_Comm_split_type(comm, split_type, key, info, newcomm), newcomm)
}
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
    TP_NEWCOMM(PMPI_Comm_create(comm, group, newcomm), newcomm)
}
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm) {
    TP_NEWCOMM(PMPI_Comm_create_group(comm, group, tag, newcomm), newcomm)
}
int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *newcomm) {
    TP_NEWCOMM(PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm), newcomm)
}
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm) {
    TP_NEWCOMM(PMPI_Cart_sub(comm, remain_dims, newcomm), newcomm)
}
int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm *newcomm) {
    TP_NEWCOMM(PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm), newcomm)
}
int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer, int remote_leader,
                         int tag, MPI_Comm *newcomm) {
    TP_NEWCOMM(PMPI_Intercomm_create(local, local_leader, peer, remote_leader, tag, newcomm),
               newcomm)
}
int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newcomm) {
    TP_NEWCOMM(PMPI_Intercomm_merge(intercomm, high, newcomm), newcomm)
}

int MPI_Comm_free(MPI_Comm *comm) {
    tp_remove_comm(*comm);
    return PMPI_Comm_free(comm);
}

/* ---------------------------------------------------------------------------------
 * Point-to-point.
 * ------------------------------------------------------------------------------- */

/* Sends: the data, then its label message. */
#define TP_SEND(NAME)                                                                          \
    int MPI_##NAME(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm) { \
        int rc = PMPI_##NAME(buf, count, t, dest, tag, comm);                                  \
        if (rc == MPI_SUCCESS)                                                                 \
            tp_send_labels(buf, count, t, dest, tag, comm);                                    \
        return rc;                                                                             \
    }
TP_SEND(Send)
TP_SEND(Ssend)
TP_SEND(Bsend)
TP_SEND(Rsend)

int MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm,
             MPI_Status *status) {
    MPI_Status s;
    int rc = PMPI_Recv(buf, count, t, src, tag, comm, &s);
    if (rc == MPI_SUCCESS)
        tp_recv_labels(buf, count, t, comm, &s);
    if (status != MPI_STATUS_IGNORE)
        *status = s;
    return rc;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                 int recvtag, MPI_Comm comm, MPI_Status *status) {
    MPI_Status s;
    tp_send_labels(sendbuf, sendcount, sendtype, dest, sendtag, comm);
    int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                           recvtype, source, recvtag, comm, &s);
    if (rc == MPI_SUCCESS)
        tp_recv_labels(recvbuf, recvcount, recvtype, comm, &s);
    if (status != MPI_STATUS_IGNORE)
        *status = s;
    return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype t, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
    MPI_Status s;
    /* The label message is a copy: it is taken before the data is replaced. */
    tp_send_labels(buf, count, t, dest, sendtag, comm);
    int rc = PMPI_Sendrecv_replace(buf, count, t, dest, sendtag, source, recvtag, comm, &s);
    if (rc == MPI_SUCCESS)
        tp_recv_labels(buf, count, t, comm, &s);
    if (status != MPI_STATUS_IGNORE)
        *status = s;
    return rc;
}

#define TP_ISEND(NAME)                                                                         \
    int MPI_##NAME(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, \
                   MPI_Request *req) {                                                         \
        int rc = PMPI_##NAME(buf, count, t, dest, tag, comm, req);                             \
        if (rc == MPI_SUCCESS)                                                                 \
            tp_send_labels(buf, count, t, dest, tag, comm);                                    \
        return rc;                                                                             \
    }
TP_ISEND(Isend)
TP_ISEND(Issend)
TP_ISEND(Ibsend)
TP_ISEND(Irsend)

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm,
              MPI_Request *req) {
    int rc = PMPI_Irecv(buf, count, t, src, tag, comm, req);
    if (rc == MPI_SUCCESS)
        tp_track_recv(*req, buf, count, t, comm);
    return rc;
}

/* Persistent requests: what each does when started (a send posts its label message then;
 * a receive is tracked until it completes, and again at every start). */
struct tp_persist {
    MPI_Request req;
    int recv;
    const void *buf;
    int count;
    MPI_Datatype type;
    int peer, tag;
    MPI_Comm comm;
};
static struct tp_persist *tp_persists;
static size_t tp_npersists, tp_cappersists;

static void tp_track_persist(MPI_Request r, int recv, const void *buf, int count,
                             MPI_Datatype t, int peer, int tag, MPI_Comm comm) {
    pthread_mutex_lock(&tp_lock);
    if (!TP_ROOM(tp_persists, tp_npersists, tp_cappersists)) {
        pthread_mutex_unlock(&tp_lock);
        return;
    }
    struct tp_persist *e = &tp_persists[tp_npersists++];
    e->req = r;
    e->recv = recv;
    e->buf = buf;
    e->count = count;
    e->type = t;
    e->peer = peer;
    e->tag = tag;
    e->comm = comm;
    pthread_mutex_unlock(&tp_lock);
}

static int tp_find_persist(MPI_Request r, struct tp_persist *out) {
    int found = 0;
    pthread_mutex_lock(&tp_lock);
    for (size_t i = 0; i < tp_npersists; i++)
        if (tp_persists[i].req == r) {
            *out = tp_persists[i];
            found = 1;
            break;
        }
    pthread_mutex_unlock(&tp_lock);
    return found;
}

static void tp_drop_persist(MPI_Request r) {
    pthread_mutex_lock(&tp_lock);
    for (size_t i = 0; i < tp_npersists; i++)
        if (tp_persists[i].req == r) {
            tp_persists[i] = tp_persists[--tp_npersists];
            break;
        }
    pthread_mutex_unlock(&tp_lock);
}

#define TP_SEND_INIT(NAME)                                                                     \
    int MPI_##NAME(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, \
                   MPI_Request *req) {                                                         \
        int rc = PMPI_##NAME(buf, count, t, dest, tag, comm, req);                             \
        if (rc == MPI_SUCCESS)                                                                 \
            tp_track_persist(*req, 0, buf, count, t, dest, tag, comm);                         \
        return rc;                                                                             \
    }
TP_SEND_INIT(Send_init)
TP_SEND_INIT(Ssend_init)
TP_SEND_INIT(Bsend_init)
TP_SEND_INIT(Rsend_init)

int MPI_Recv_init(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm,
                  MPI_Request *req) {
    int rc = PMPI_Recv_init(buf, count, t, src, tag, comm, req);
    if (rc == MPI_SUCCESS)
        tp_track_persist(*req, 1, buf, count, t, src, tag, comm);
    return rc;
}

static void tp_started(MPI_Request r) {
    struct tp_persist p;
    if (!tp_find_persist(r, &p))
        return;
    if (p.recv)
        tp_track_recv(r, (void *)p.buf, p.count, p.type, p.comm);
    else
        tp_send_labels(p.buf, p.count, p.type, p.peer, p.tag, p.comm);
}

int MPI_Start(MPI_Request *req) {
    int rc = PMPI_Start(req);
    if (rc == MPI_SUCCESS)
        tp_started(*req);
    return rc;
}

int MPI_Startall(int n, MPI_Request reqs[]) {
    int rc = PMPI_Startall(n, reqs);
    if (rc == MPI_SUCCESS)
        for (int i = 0; i < n; i++)
            tp_started(reqs[i]);
    return rc;
}

int MPI_Request_free(MPI_Request *req) {
    struct tp_recv r;
    tp_take_recv(*req, &r);
    tp_drop_persist(*req);
    return PMPI_Request_free(req);
}

/* Matched probes: the communicator of each message handle, for its receive. */
struct tp_matched {
    MPI_Message msg;
    MPI_Comm comm;
};
static struct tp_matched tp_matched[64];
static size_t tp_nmatched;

static void tp_note_message(MPI_Message m, MPI_Comm comm) {
    if (m == MPI_MESSAGE_NULL || m == MPI_MESSAGE_NO_PROC)
        return;
    pthread_mutex_lock(&tp_lock);
    if (tp_nmatched < sizeof tp_matched / sizeof *tp_matched) {
        tp_matched[tp_nmatched].msg = m;
        tp_matched[tp_nmatched].comm = comm;
        tp_nmatched++;
    }
    pthread_mutex_unlock(&tp_lock);
}

static MPI_Comm tp_message_comm(MPI_Message m) {
    MPI_Comm c = MPI_COMM_NULL;
    pthread_mutex_lock(&tp_lock);
    for (size_t i = 0; i < tp_nmatched; i++)
        if (tp_matched[i].msg == m) {
            c = tp_matched[i].comm;
            tp_matched[i] = tp_matched[--tp_nmatched];
            break;
        }
    pthread_mutex_unlock(&tp_lock);
    return c;
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status) {
    int rc = PMPI_Mprobe(source, tag, comm, message, status);
    if (rc == MPI_SUCCESS)
        tp_note_message(*message, comm);
    return rc;
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                MPI_Status *status) {
    int rc = PMPI_Improbe(source, tag, comm, flag, message, status);
    if (rc == MPI_SUCCESS && *flag)
        tp_note_message(*message, comm);
    return rc;
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype t, MPI_Message *message, MPI_Status *status) {
    MPI_Comm comm = tp_message_comm(*message);
    MPI_Status s;
    int rc = PMPI_Mrecv(buf, count, t, message, &s);
    if (rc == MPI_SUCCESS && comm != MPI_COMM_NULL)
        tp_recv_labels(buf, count, t, comm, &s);
    if (status != MPI_STATUS_IGNORE)
        *status = s;
    return rc;
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype t, MPI_Message *message,
               MPI_Request *req) {
    MPI_Comm comm = tp_message_comm(*message);
    int rc = PMPI_Imrecv(buf, count, t, message, req);
    if (rc == MPI_SUCCESS && comm != MPI_COMM_NULL)
        tp_track_recv(*req, buf, count, t, comm);
    return rc;
}

/* Completion. Each keeps the request handles (completion resets them to
 * MPI_REQUEST_NULL) and its own statuses (the program may pass MPI_STATUS_IGNORE). */

int MPI_Wait(MPI_Request *req, MPI_Status *status) {
    MPI_Request saved = *req;
    MPI_Status s;
    int rc = PMPI_Wait(req, &s);
    if (rc == MPI_SUCCESS)
        tp_completed(&saved, NULL, &s, 1);
    if (status != MPI_STATUS_IGNORE)
        *status = s;
    return rc;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
    MPI_Request saved = *req;
    MPI_Status s;
    int rc = PMPI_Test(req, flag, &s);
    if (rc == MPI_SUCCESS && *flag) {
        tp_completed(&saved, NULL, &s, 1);
        if (status != MPI_STATUS_IGNORE)
            *status = s;
    }
    return rc;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[]) {
    if (n <= 0)
        return PMPI_Waitall(n, reqs, statuses);
    MPI_Request *saved = malloc((size_t)n * sizeof *saved);
    MPI_Status *st = statuses != MPI_STATUSES_IGNORE ? statuses : malloc((size_t)n * sizeof *st);
    if (!saved || !st) {
        free(saved);
        if (st != statuses)
            free(st);
        return PMPI_Waitall(n, reqs, statuses);
    }
    memcpy(saved, reqs, (size_t)n * sizeof *saved);
    int rc = PMPI_Waitall(n, reqs, st);
    if (rc == MPI_SUCCESS)
        tp_completed(saved, NULL, st, n);
    free(saved);
    if (st != statuses)
        free(st);
    return rc;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[]) {
    if (n <= 0)
        return PMPI_Testall(n, reqs, flag, statuses);
    MPI_Request *saved = malloc((size_t)n * sizeof *saved);
    MPI_Status *st = statuses != MPI_STATUSES_IGNORE ? statuses : malloc((size_t)n * sizeof *st);
    if (!saved || !st) {
        free(saved);
        if (st != statuses)
            free(st);
        return PMPI_Testall(n, reqs, flag, statuses);
    }
    memcpy(saved, reqs, (size_t)n * sizeof *saved);
    int rc = PMPI_Testall(n, reqs, flag, st);
    if (rc == MPI_SUCCESS && *flag)
        tp_completed(saved, NULL, st, n);
    free(saved);
    if (st != statuses)
        free(st);
    return rc;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status) {
    MPI_Request small[16], *saved = n <= 16 ? small : malloc((size_t)n * sizeof *saved);
    MPI_Status s;
    if (!saved)
        return PMPI_Waitany(n, reqs, index, status);
    if (n > 0)
        memcpy(saved, reqs, (size_t)n * sizeof *saved);
    int rc = PMPI_Waitany(n, reqs, index, &s);
    if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
        tp_completed(saved, index, &s, 1);
    if (status != MPI_STATUS_IGNORE)
        *status = s;
    if (saved != small)
        free(saved);
    return rc;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status) {
    MPI_Request small[16], *saved = n <= 16 ? small : malloc((size_t)n * sizeof *saved);
    MPI_Status s;
    if (!saved)
        return PMPI_Testany(n, reqs, index, flag, status);
    if (n > 0)
        memcpy(saved, reqs, (size_t)n * sizeof *saved);
    int rc = PMPI_Testany(n, reqs, index, flag, &s);
    if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED)
        tp_completed(saved, index, &s, 1);
    if (rc == MPI_SUCCESS && *flag && status != MPI_STATUS_IGNORE)
        *status = s;
    if (saved != small)
        free(saved);
    return rc;
}

static int tp_some(int test, int n, MPI_Request reqs[], int *outcount, int indices[],
                   MPI_Status statuses[]) {
    MPI_Request *saved = n > 0 ? malloc((size_t)n * sizeof *saved) : NULL;
    MPI_Status *st =
        statuses != MPI_STATUSES_IGNORE || n <= 0 ? statuses : malloc((size_t)n * sizeof *st);
    if (n > 0 && (!saved || !st)) {
        free(saved);
        if (st != statuses)
            free(st);
        return test ? PMPI_Testsome(n, reqs, outcount, indices, statuses)
                    : PMPI_Waitsome(n, reqs, outcount, indices, statuses);
    }
    if (n > 0)
        memcpy(saved, reqs, (size_t)n * sizeof *saved);
    int rc = test ? PMPI_Testsome(n, reqs, outcount, indices, st)
                  : PMPI_Waitsome(n, reqs, outcount, indices, st);
    if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED && *outcount > 0)
        tp_completed(saved, indices, st, *outcount);
    free(saved);
    if (st != statuses)
        free(st);
    return rc;
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
    return tp_some(0, n, reqs, outcount, indices, statuses);
}
int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
    return tp_some(1, n, reqs, outcount, indices, statuses);
}

/* ---------------------------------------------------------------------------------
 * Collectives.
 * ------------------------------------------------------------------------------- */

static int tp_is_inter(MPI_Comm comm) {
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    return inter;
}

static int tp_rank(MPI_Comm comm) {
    int r = 0;
    PMPI_Comm_rank(comm, &r);
    return r;
}

static int tp_size(MPI_Comm comm) {
    int n = 0;
    PMPI_Comm_size(comm, &n);
    return n;
}

/* Broadcast of labels: [len] then the label message. */
static void tp_bcast_labels(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm) {
    MPI_Comm s = tp_shadow_of(comm);
    if (s == MPI_COMM_NULL || tp_is_inter(comm))
        return;
    int me = tp_rank(comm), len = 0;
    tp_label *m = NULL;
    if (me == root)
        m = tp_pack(buf, count, t, &len);
    PMPI_Bcast(&len, 1, MPI_INT, root, s);
    if (len <= 0) {
        free(m);
        return;
    }
    if (me != root)
        m = malloc((size_t)len * sizeof *m);
    tp_label dummy[2];
    PMPI_Bcast(m ? m : dummy, m ? len : 0, MPI_UNSIGNED_SHORT, root, s);
    if (me != root && m)
        tp_unpack(buf, count, t, m, len);
    free(m);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm) {
    int rc = PMPI_Bcast(buf, count, t, root, comm);
    if (rc == MPI_SUCCESS)
        tp_bcast_labels(buf, count, t, root, comm);
    return rc;
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm,
               MPI_Request *req) {
    /* The root's labels are those of the buffer now; the others' buffers get them at
     * once (the program reads them only after completion). */
    tp_bcast_labels(buf, count, t, root, comm);
    return PMPI_Ibcast(buf, count, t, root, comm, req);
}

/* Element-wise union over all contributions. `root` < 0: every rank gets the result. */
static void tp_reduce_labels(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t,
                             int root, MPI_Comm comm) {
    MPI_Comm s = tp_shadow_of(comm);
    if (s == MPI_COMM_NULL || count <= 0 || tp_is_inter(comm))
        return;
    const void *src = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    tp_label *in = tp_elem_labels(src, count, t);
    tp_label *out = malloc((size_t)count * sizeof *out);
    if (!in || !out) {
        /* Every rank must still take part: send zeros. */
        free(in);
        free(out);
        in = calloc((size_t)count, sizeof *in);
        out = malloc((size_t)count * sizeof *out);
        if (!in || !out) {
            free(in);
            free(out);
            return;
        }
    }
    struct tp_canon c;
    tp_common_begin(&c, s, in, count);
    if (root < 0)
        PMPI_Allreduce(in, out, count, MPI_UNSIGNED_SHORT, MPI_BOR, s);
    else
        PMPI_Reduce(in, out, count, MPI_UNSIGNED_SHORT, MPI_BOR, root, s);
    if (root < 0 || tp_rank(comm) == root) {
        tp_common_end(&c, out, count);
        tp_apply_elem_labels(recvbuf, count, t, out);
    } else {
        tp_canon_end(&c);
    }
    free(in);
    free(out);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
               int root, MPI_Comm comm) {
    const void *src = sendbuf;
    tp_label *keep = NULL;
    /* In place at the root: the labels must be read before the result overwrites. */
    if (sendbuf == MPI_IN_PLACE)
        keep = tp_elem_labels(recvbuf, count, t);
    int rc = PMPI_Reduce(sendbuf, recvbuf, count, t, op, root, comm);
    if (rc == MPI_SUCCESS) {
        if (keep) {
            tp_apply_elem_labels(recvbuf, count, t, keep);
            src = MPI_IN_PLACE;
        }
        tp_reduce_labels(src, recvbuf, count, t, root, comm);
    }
    free(keep);
    return rc;
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
                  MPI_Comm comm) {
    tp_label *keep = NULL;
    if (sendbuf == MPI_IN_PLACE)
        keep = tp_elem_labels(recvbuf, count, t);
    int rc = PMPI_Allreduce(sendbuf, recvbuf, count, t, op, comm);
    if (rc == MPI_SUCCESS) {
        if (keep)
            tp_apply_elem_labels(recvbuf, count, t, keep);
        tp_reduce_labels(keep ? MPI_IN_PLACE : sendbuf, recvbuf, count, t, -1, comm);
    }
    free(keep);
    return rc;
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
                   MPI_Comm comm, MPI_Request *req) {
    /* Labels first (the data may not have arrived, but the buffer is the program's only
     * after completion). In place, the send labels are the receive buffer's. */
    tp_reduce_labels(sendbuf, recvbuf, count, t, -1, comm);
    return PMPI_Iallreduce(sendbuf, recvbuf, count, t, op, comm, req);
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *req) {
    tp_reduce_labels(sendbuf, recvbuf, count, t, root, comm);
    return PMPI_Ireduce(sendbuf, recvbuf, count, t, op, root, comm, req);
}

static void tp_scan_labels(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t,
                           MPI_Comm comm, int exclusive, const tp_label *in_place) {
    MPI_Comm s = tp_shadow_of(comm);
    if (s == MPI_COMM_NULL || count <= 0)
        return;
    tp_label *in = malloc((size_t)count * sizeof *in);
    tp_label *out = calloc((size_t)count, sizeof *out);
    if (in && in_place)
        memcpy(in, in_place, (size_t)count * sizeof *in);
    else if (in)
        for (int i = 0; i < count; i++) {
            struct tp_geom g = tp_geom_of(t);
            in[i] = tp_elem_label(sendbuf, i, &g);
        }
    if (!in || !out) {
        free(in);
        free(out);
        return;
    }
    struct tp_canon c;
    tp_common_begin(&c, s, in, count);
    if (exclusive)
        PMPI_Exscan(in, out, count, MPI_UNSIGNED_SHORT, MPI_BOR, s);
    else
        PMPI_Scan(in, out, count, MPI_UNSIGNED_SHORT, MPI_BOR, s);
    tp_common_end(&c, out, count);
    if (!exclusive || tp_rank(comm) > 0)
        tp_apply_elem_labels(recvbuf, count, t, out);
    free(in);
    free(out);
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
             MPI_Comm comm) {
    tp_label *keep = sendbuf == MPI_IN_PLACE ? tp_elem_labels(recvbuf, count, t) : NULL;
    int rc = PMPI_Scan(sendbuf, recvbuf, count, t, op, comm);
    if (rc == MPI_SUCCESS && (sendbuf != MPI_IN_PLACE || keep))
        tp_scan_labels(sendbuf, recvbuf, count, t, comm, 0, keep);
    free(keep);
    return rc;
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
               MPI_Comm comm) {
    tp_label *keep = sendbuf == MPI_IN_PLACE ? tp_elem_labels(recvbuf, count, t) : NULL;
    int rc = PMPI_Exscan(sendbuf, recvbuf, count, t, op, comm);
    if (rc == MPI_SUCCESS && (sendbuf != MPI_IN_PLACE || keep))
        tp_scan_labels(sendbuf, recvbuf, count, t, comm, 1, keep);
    free(keep);
    return rc;
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    int n = tp_size(comm);
    long total = (long)n * recvcount;
    tp_label *in =
        tp_elem_labels(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, total, t);
    int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, t, op, comm);
    MPI_Comm s = tp_shadow_of(comm);
    if (rc == MPI_SUCCESS && s != MPI_COMM_NULL && recvcount > 0) {
        tp_label *out = calloc((size_t)recvcount, sizeof *out);
        tp_label *src = in ? in : calloc((size_t)total, sizeof *src);
        if (out && src) {
            struct tp_canon c;
            tp_common_begin(&c, s, src, total);
            PMPI_Reduce_scatter_block(src, out, recvcount, MPI_UNSIGNED_SHORT, MPI_BOR, s);
            tp_common_end(&c, out, recvcount);
            tp_apply_elem_labels(recvbuf, recvcount, t, out);
        }
        if (src != in)
            free(src);
        free(out);
    }
    free(in);
    return rc;
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    int n = tp_size(comm);
    long total = 0;
    for (int i = 0; i < n; i++)
        total += recvcounts[i];
    tp_label *in =
        tp_elem_labels(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, total, t);
    int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, t, op, comm);
    MPI_Comm s = tp_shadow_of(comm);
    int mine = recvcounts[tp_rank(comm)];
    if (rc == MPI_SUCCESS && s != MPI_COMM_NULL && total > 0) {
        tp_label *out = calloc((size_t)(mine > 0 ? mine : 1), sizeof *out);
        tp_label *src = in ? in : calloc((size_t)total, sizeof *src);
        if (out && src) {
            struct tp_canon c;
            tp_common_begin(&c, s, src, total);
            PMPI_Reduce_scatter(src, out, recvcounts, MPI_UNSIGNED_SHORT, MPI_BOR, s);
            tp_common_end(&c, out, mine);
            tp_apply_elem_labels(recvbuf, mine, t, out);
        }
        if (src != in)
            free(src);
        free(out);
    }
    free(in);
    return rc;
}

/* Gathers, scatters, all-to-all: one label per block (the union of the block's
 * labels), moved by the same collective; a received block gets its label on every
 * element. `displs` in elements of the receive type, NULL for contiguous blocks. */

static void tp_set_block(void *buf, int block, const int *counts, int count, const int *displs,
                         MPI_Datatype t, tp_label l) {
    struct tp_geom g = tp_geom_of(t);
    long at = displs ? displs[block] : (long)block * count;
    int n = counts ? counts[block] : count;
    tp_span_set((char *)buf + at * g.extent, n, &g, l);
}

static tp_label tp_block_label(const void *buf, int block, const int *counts, int count,
                               const int *displs, MPI_Datatype t) {
    struct tp_geom g = tp_geom_of(t);
    long at = displs ? displs[block] : (long)block * count;
    int n = counts ? counts[block] : count;
    return tp_span_label((const char *)buf + at * g.extent, n, &g);
}

/* Gather (root >= 0) or allgather (root < 0). */
static void tp_gather_labels(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int *recvcounts, int recvcount,
                             const int *displs, MPI_Datatype recvtype, int root,
                             MPI_Comm comm) {
    MPI_Comm s = tp_shadow_of(comm);
    if (s == MPI_COMM_NULL || tp_is_inter(comm))
        return;
    int n = tp_size(comm), me = tp_rank(comm);
    tp_label mine;
    if (sendbuf == MPI_IN_PLACE) {
        mine = tp_block_label(recvbuf, me, recvcounts, recvcount, displs, recvtype);
    } else {
        struct tp_geom g = tp_geom_of(sendtype);
        mine = tp_span_label(sendbuf, sendcount, &g);
    }
    tp_label *all = malloc((size_t)n * sizeof *all);
    tp_label dummy[1];
    struct tp_canon c;
    tp_common_begin(&c, s, &mine, 1);
    if (root < 0)
        PMPI_Allgather(&mine, 1, MPI_UNSIGNED_SHORT, all ? all : dummy, all ? 1 : 0,
                       MPI_UNSIGNED_SHORT, s);
    else
        PMPI_Gather(&mine, 1, MPI_UNSIGNED_SHORT, all ? all : dummy, all ? 1 : 0,
                    MPI_UNSIGNED_SHORT, root, s);
    if (all && (root < 0 || me == root)) {
        tp_common_end(&c, all, n);
        for (int i = 0; i < n; i++)
            tp_set_block(recvbuf, i, recvcounts, recvcount, displs, recvtype, all[i]);
    } else {
        tp_canon_end(&c);
    }
    free(all);
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    int rc = PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    if (rc == MPI_SUCCESS)
        tp_gather_labels(sendbuf, sendcount, sendtype, recvbuf, NULL, recvcount, NULL, recvtype,
                         root, comm);
    return rc;
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
    int rc = PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                          root, comm);
    if (rc == MPI_SUCCESS)
        tp_gather_labels(sendbuf, sendcount, sendtype, recvbuf, recvcounts, 0, displs,
                         recvtype, root, comm);
    return rc;
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    if (rc == MPI_SUCCESS)
        tp_gather_labels(sendbuf, sendcount, sendtype, recvbuf, NULL, recvcount, NULL, recvtype,
                         -1, comm);
    return rc;
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
    int rc = PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                             recvtype, comm);
    if (rc == MPI_SUCCESS)
        tp_gather_labels(sendbuf, sendcount, sendtype, recvbuf, recvcounts, 0, displs,
                         recvtype, -1, comm);
    return rc;
}

/* Scatter: the root's block i goes to rank i. */
static void tp_scatter_labels(const void *sendbuf, const int *sendcounts, int sendcount,
                              const int *displs, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    MPI_Comm s = tp_shadow_of(comm);
    if (s == MPI_COMM_NULL || tp_is_inter(comm))
        return;
    int n = tp_size(comm), me = tp_rank(comm);
    tp_label *all = NULL, mine = 0;
    if (me == root) {
        all = malloc((size_t)n * sizeof *all);
        if (!all)
            all = calloc(1, (size_t)n * sizeof *all);
        for (int i = 0; all && i < n; i++)
            all[i] = tp_block_label(sendbuf, i, sendcounts, sendcount, displs, sendtype);
    }
    tp_label dummy = 0;
    struct tp_canon c;
    tp_common_begin(&c, s, all, me == root && all ? n : 0);
    PMPI_Scatter(all ? all : &dummy, 1, MPI_UNSIGNED_SHORT, &mine, 1, MPI_UNSIGNED_SHORT, root,
                 s);
    tp_common_end(&c, &mine, 1);
    if (recvbuf != MPI_IN_PLACE) {
        struct tp_geom g = tp_geom_of(recvtype);
        tp_span_set(recvbuf, recvcount, &g, mine);
    }
    free(all);
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    int rc =
        PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    if (rc == MPI_SUCCESS)
        tp_scatter_labels(sendbuf, NULL, sendcount, NULL, sendtype, recvbuf, recvcount,
                          recvtype, root, comm);
    return rc;
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm) {
    int rc = PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                           root, comm);
    if (rc == MPI_SUCCESS)
        tp_scatter_labels(sendbuf, sendcounts, 0, displs, sendtype, recvbuf, recvcount,
                          recvtype, root, comm);
    return rc;
}

/* All-to-all: block i of every rank's send buffer goes to rank i. */
static void tp_alltoall_labels(const void *sendbuf, const int *sendcounts, int sendcount,
                               const int *sdispls, MPI_Datatype sendtype, void *recvbuf,
                               const int *recvcounts, int recvcount, const int *rdispls,
                               MPI_Datatype recvtype, MPI_Comm comm, const tp_label *in_place) {
    MPI_Comm s = tp_shadow_of(comm);
    if (s == MPI_COMM_NULL || tp_is_inter(comm))
        return;
    int n = tp_size(comm);
    tp_label *out = malloc((size_t)n * sizeof *out);
    tp_label *in = in_place ? NULL : malloc((size_t)n * sizeof *in);
    if (!out || (!in && !in_place)) {
        free(out);
        free(in);
        return;
    }
    if (!in_place)
        for (int i = 0; i < n; i++)
            in[i] = tp_block_label(sendbuf, i, sendcounts, sendcount, sdispls, sendtype);
    else if ((in = malloc((size_t)n * sizeof *in)) != NULL)
        memcpy(in, in_place, (size_t)n * sizeof *in);
    if (!in) {
        free(out);
        return;
    }
    struct tp_canon c;
    tp_common_begin(&c, s, in, n);
    PMPI_Alltoall(in, 1, MPI_UNSIGNED_SHORT, out, 1, MPI_UNSIGNED_SHORT, s);
    tp_common_end(&c, out, n);
    for (int i = 0; i < n; i++)
        tp_set_block(recvbuf, i, recvcounts, recvcount, rdispls, recvtype, out[i]);
    free(out);
    free(in);
}

static tp_label *tp_block_labels(const void *buf, int n, const int *counts, int count,
                                 const int *displs, MPI_Datatype t) {
    tp_label *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    for (int i = 0; v && i < n; i++)
        v[i] = tp_block_label(buf, i, counts, count, displs, t);
    return v;
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    tp_label *keep = sendbuf == MPI_IN_PLACE
                         ? tp_block_labels(recvbuf, tp_size(comm), NULL, recvcount, NULL, recvtype)
                         : NULL;
    int rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    if (rc == MPI_SUCCESS && (sendbuf != MPI_IN_PLACE || keep))
        tp_alltoall_labels(sendbuf, NULL, sendcount, NULL, sendtype, recvbuf, NULL, recvcount,
                           NULL, recvtype, comm, keep);
    free(keep);
    return rc;
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
    tp_label *keep =
        sendbuf == MPI_IN_PLACE
            ? tp_block_labels(recvbuf, tp_size(comm), recvcounts, 0, rdispls, recvtype)
            : NULL;
    int rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                            rdispls, recvtype, comm);
    if (rc == MPI_SUCCESS && (sendbuf != MPI_IN_PLACE || keep))
        tp_alltoall_labels(sendbuf, sendcounts, 0, sdispls, sendtype, recvbuf, recvcounts, 0,
                           rdispls, recvtype, comm, keep);
    free(keep);
    return rc;
}

/* ---------------------------------------------------------------------------------
 * One-sided communication (MPI_Put, MPI_Get, MPI_Accumulate) on windows made by
 * MPI_Win_create or MPI_Win_allocate, with contiguous data of one predefined type on
 * both sides. Each window has a *shadow window* over the shadow memory of its bytes
 * (two bytes of label per byte: the same direct mapping, so displacements scale by
 * two), and every synchronisation of the window is repeated on it. There is no code
 * at the target when the data lands, so labels are translated at the origin: every
 * window keeps each rank's parameter names (gathered when it is made and at every
 * fence, when every rank also registers the names it had not seen), a put or
 * accumulate writes the labels in the target's numbering, and a get
 * reads them in the target's numbering and translates them once the get completed (at
 * the next fence, unlock, flush or complete). A name the target does not know is
 * dropped there, as are labels of other datatypes (counted like calls on unknown
 * communicators).
 * ------------------------------------------------------------------------------- */

struct tp_get {
    void *origin;
    int target;
    size_t bytes;
    tp_label *labels;
};

struct tp_win {
    MPI_Win win, shadow;
    MPI_Comm comm; /* a duplicate of the window's communicator, for the name tables */
    tp_label *tables;
    int *lens, *displs, size;
    struct tp_get *gets;
    size_t ngets, capgets;
    tp_label **bufs; /* label buffers of puts and accumulates, freed at the next sync */
    size_t nbufs, capbufs;
};
static struct tp_win *tp_wins;
static size_t tp_nwins, tp_capwins;

/* Collective over the window's group: every rank's name table of all its parameters. */
static void tp_win_gather(struct tp_win *w) {
    int w_len = tp_table(0xffff, NULL);
    tp_label *mine = malloc((size_t)(w_len > 0 ? w_len : 1) * sizeof *mine);
    if (!mine)
        w_len = 0;
    else
        tp_table(0xffff, mine);
    PMPI_Allgather(&w_len, 1, MPI_INT, w->lens, 1, MPI_INT, w->comm);
    int total = 0;
    for (int r = 0; r < w->size; r++) {
        w->displs[r] = total;
        total += w->lens[r];
    }
    free(w->tables);
    w->tables = malloc((size_t)(total > 0 ? total : 1) * sizeof *w->tables);
    tp_label dummy = 0;
    PMPI_Allgatherv(mine ? mine : &dummy, w_len, MPI_UNSIGNED_SHORT,
                    w->tables ? w->tables : &dummy, w->lens, w->displs, MPI_UNSIGNED_SHORT,
                    w->comm);
    if (!w->tables)
        memset(w->lens, 0, (size_t)w->size * sizeof *w->lens);
    free(mine);
}

/* Collective: every rank learns every rank's parameter names (registering those it has
 * not seen: a put lands labels in the target's numbering, so the target must have a
 * bit for each name before the data arrives), then the tables are gathered again, now
 * with the names each rank learnt. */
static void tp_win_names(struct tp_win *w) {
    tp_win_gather(w);
    int learnt = 0;
    for (int r = 0; w->tables && r < w->size; r++) {
        const tp_label *t = w->tables + w->displs[r];
        for (int k = 0; k + 2 <= w->lens[r];) {
            int n = t[k + 1], step = 2 + (n + 1) / 2;
            if (k + step > w->lens[r])
                break;
            size_t len = 0;
            int known = 0;
            for (int j = 0; j < 16 && !known; j++) {
                const char *name = __tp_param_name(j, &len);
                if (!name)
                    break;
                known = (size_t)n == len && memcmp(t + k + 2, name, len) == 0;
            }
            if (!known && n > 0) {
                __tp_param_intern((const char *)(t + k + 2), (size_t)n);
                learnt = 1;
            }
            k += step;
        }
    }
    /* Every rank must take part in the second gather if any rank learnt a name. */
    int any = 0;
    PMPI_Allreduce(&learnt, &any, 1, MPI_INT, MPI_LOR, w->comm);
    if (any)
        tp_win_gather(w);
}

/* Collective: the shadow window of `win` over `size` bytes at `base`. */
static void tp_win_add(MPI_Win win, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                       MPI_Comm comm) {
    struct tp_win w;
    memset(&w, 0, sizeof w);
    w.win = win;
    w.shadow = MPI_WIN_NULL;
    if (PMPI_Comm_dup(comm, &w.comm) != MPI_SUCCESS)
        return;
    PMPI_Comm_size(w.comm, &w.size);
    w.lens = calloc((size_t)w.size, sizeof *w.lens);
    w.displs = calloc((size_t)w.size, sizeof *w.displs);
    void *shadow = size > 0 ? (void *)__tp_shadow_ptr(base) : NULL;
    if (PMPI_Win_create(shadow, 2 * size, 2 * disp_unit, info, w.comm, &w.shadow) !=
            MPI_SUCCESS ||
        !w.lens || !w.displs) {
        free(w.lens);
        free(w.displs);
        PMPI_Comm_free(&w.comm);
        return;
    }
    tp_win_names(&w);
    pthread_mutex_lock(&tp_lock);
    if (TP_ROOM(tp_wins, tp_nwins, tp_capwins))
        tp_wins[tp_nwins++] = w;
    pthread_mutex_unlock(&tp_lock);
}

/* The window's entry (stable until MPI_Win_free: windows are made and freed by the
 * program's collective calls, not concurrently with its RMA calls on them). */
static struct tp_win *tp_win_of(MPI_Win win) {
    struct tp_win *w = NULL;
    pthread_mutex_lock(&tp_lock);
    for (size_t i = 0; i < tp_nwins; i++)
        if (tp_wins[i].win == win)
            w = &tp_wins[i];
    if (!w)
        tp_unlabelled++;
    pthread_mutex_unlock(&tp_lock);
    return w;
}

/* map[j]: rank `r`'s label of this process's parameter j (0 if `r` does not know it). */
static void tp_map_to(const struct tp_win *w, int r, tp_label map[16]) {
    memset(map, 0, 16 * sizeof *map);
    if (r < 0 || r >= w->size || !w->tables)
        return;
    const tp_label *t = w->tables + w->displs[r];
    for (int j = 0; j < 16; j++) {
        size_t len = 0;
        const char *name = __tp_param_name(j, &len);
        if (!name)
            break;
        for (int k = 0; k + 2 <= w->lens[r];) {
            int bit = t[k], n = t[k + 1], step = 2 + (n + 1) / 2;
            if (k + step > w->lens[r])
                break;
            if ((size_t)n == len && memcmp(t + k + 2, name, len) == 0 && bit < 16) {
                map[j] = (tp_label)(1u << bit);
                break;
            }
            k += step;
        }
    }
}

/* Bytes of `count` elements of `t` if both sides are contiguous and alike, else 0. */
static size_t tp_rma_bytes(int oc, MPI_Datatype ot, int tc, MPI_Datatype tt) {
    if (ot != tt || oc != tc || oc <= 0)
        return 0;
    int size = 0;
    struct tp_geom g = tp_geom_of(ot);
    PMPI_Type_size(ot, &size);
    if (size <= 0 || g.extent != size || g.textent != size || g.tlb != 0)
        return 0;
    return (size_t)oc * (size_t)size;
}

static void tp_keep_buf(struct tp_win *w, tp_label *b) {
    pthread_mutex_lock(&tp_lock);
    if (TP_ROOM(w->bufs, w->nbufs, w->capbufs)) {
        w->bufs[w->nbufs++] = b;
        b = NULL;
    }
    pthread_mutex_unlock(&tp_lock);
    /* No room to keep it: it must live until the sync, so it leaks (out of memory). */
    (void)b;
}

/* A put (`acc` 0) or accumulate (`op`) of `bytes` bytes from `origin` to `target`. */
static void tp_rma_send(struct tp_win *w, const void *origin, size_t bytes, int target,
                        MPI_Aint disp, int acc, MPI_Op op) {
    tp_label map[16], *buf = malloc(bytes * sizeof *buf);
    if (!buf)
        return;
    tp_map_to(w, target, map);
    const tp_label *sh = __tp_shadow_ptr(origin);
    for (size_t i = 0; i < bytes; i++)
        buf[i] = sh[i] ? tp_map(tp_wire(sh[i]), map) : 0;
    if (acc)
        PMPI_Accumulate(buf, (int)bytes, MPI_UNSIGNED_SHORT, target, disp, (int)bytes,
                        MPI_UNSIGNED_SHORT, op == MPI_REPLACE ? MPI_REPLACE : MPI_BOR,
                        w->shadow);
    else
        PMPI_Put(buf, (int)bytes, MPI_UNSIGNED_SHORT, target, disp, (int)bytes,
                 MPI_UNSIGNED_SHORT, w->shadow);
    tp_keep_buf(w, buf);
}

int MPI_Put(const void *origin, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc,
            MPI_Datatype tt, MPI_Win win) {
    int rc = PMPI_Put(origin, oc, ot, target, disp, tc, tt, win);
    size_t bytes = tp_rma_bytes(oc, ot, tc, tt);
    struct tp_win *w;
    if (rc == MPI_SUCCESS && target != MPI_PROC_NULL && bytes && (w = tp_win_of(win)) != NULL)
        tp_rma_send(w, origin, bytes, target, disp, 0, MPI_REPLACE);
    return rc;
}

int MPI_Accumulate(const void *origin, int oc, MPI_Datatype ot, int target, MPI_Aint disp,
                   int tc, MPI_Datatype tt, MPI_Op op, MPI_Win win) {
    int rc = PMPI_Accumulate(origin, oc, ot, target, disp, tc, tt, op, win);
    size_t bytes = tp_rma_bytes(oc, ot, tc, tt);
    struct tp_win *w;
    if (rc == MPI_SUCCESS && target != MPI_PROC_NULL && bytes && (w = tp_win_of(win)) != NULL)
        tp_rma_send(w, origin, bytes, target, disp, 1, op);
    return rc;
}

int MPI_Get(void *origin, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc,
            MPI_Datatype tt, MPI_Win win) {
    int rc = PMPI_Get(origin, oc, ot, target, disp, tc, tt, win);
    size_t bytes = tp_rma_bytes(oc, ot, tc, tt);
    struct tp_win *w;
    if (rc != MPI_SUCCESS || target == MPI_PROC_NULL || !bytes || !(w = tp_win_of(win)))
        return rc;
    tp_label *labels = malloc(bytes * sizeof *labels);
    if (!labels)
        return rc;
    PMPI_Get(labels, (int)bytes, MPI_UNSIGNED_SHORT, target, disp, (int)bytes,
             MPI_UNSIGNED_SHORT, w->shadow);
    pthread_mutex_lock(&tp_lock);
    if (TP_ROOM(w->gets, w->ngets, w->capgets)) {
        w->gets[w->ngets].origin = origin;
        w->gets[w->ngets].target = target;
        w->gets[w->ngets].bytes = bytes;
        w->gets[w->ngets].labels = labels;
        w->ngets++;
        labels = NULL;
    }
    pthread_mutex_unlock(&tp_lock);
    (void)labels; /* no room: leaks until exit rather than be freed while MPI writes it */
    return rc;
}

/* After a synchronisation that completed the window's operations towards `target` (-1:
 * all): the gets' labels, translated from the target's numbering, land in the origin
 * buffers' shadow; the puts' buffers are freed. */
static void tp_win_done(struct tp_win *w, int target) {
    pthread_mutex_lock(&tp_lock);
    for (size_t i = 0; i < w->ngets;) {
        struct tp_get g = w->gets[i];
        if (target >= 0 && g.target != target) {
            i++;
            continue;
        }
        w->gets[i] = w->gets[--w->ngets];
        pthread_mutex_unlock(&tp_lock);
        tp_label map[16];
        memset(map, 0, sizeof map);
        if (g.target < w->size && w->tables)
            tp_table_map(w->tables + w->displs[g.target], w->lens[g.target], map);
        tp_label *sh = __tp_shadow_ptr(g.origin);
        for (size_t k = 0; k < g.bytes; k++)
            sh[k] = g.labels[k] ? tp_map(g.labels[k], map) : 0;
        free(g.labels);
        pthread_mutex_lock(&tp_lock);
    }
    if (target < 0) {
        for (size_t i = 0; i < w->nbufs; i++)
            free(w->bufs[i]);
        w->nbufs = 0;
    }
    pthread_mutex_unlock(&tp_lock);
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win *win) {
    int rc = PMPI_Win_create(base, size, disp_unit, info, comm, win);
    if (rc == MPI_SUCCESS)
        tp_win_add(*win, base, size, disp_unit, info, comm);
    return rc;
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                     MPI_Win *win) {
    int rc = PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
    if (rc == MPI_SUCCESS) {
        void *base = *(void **)baseptr;
        /* Fresh memory: no labels (the shadow may hold a freed block's). */
        if (size > 0)
            __tp_shadow_set(base, 0, (size_t)size);
        tp_win_add(*win, base, size, disp_unit, info, comm);
    }
    return rc;
}

int MPI_Win_free(MPI_Win *win) {
    struct tp_win w;
    int found = 0;
    pthread_mutex_lock(&tp_lock);
    for (size_t i = 0; i < tp_nwins; i++)
        if (tp_wins[i].win == *win) {
            w = tp_wins[i];
            tp_wins[i] = tp_wins[--tp_nwins];
            found = 1;
            break;
        }
    pthread_mutex_unlock(&tp_lock);
    int rc = PMPI_Win_free(win);
    if (found) {
        tp_win_done(&w, -1);
        PMPI_Win_free(&w.shadow);
        PMPI_Comm_free(&w.comm);
        free(w.tables);
        free(w.lens);
        free(w.displs);
        free(w.gets);
        free(w.bufs);
    }
    return rc;
}

/* Synchronisations: the same on the shadow window, after the window's own. */

int MPI_Win_fence(int assert, MPI_Win win) {
    int rc = PMPI_Win_fence(assert, win);
    struct tp_win *w = tp_win_of(win);
    if (rc == MPI_SUCCESS && w) {
        PMPI_Win_fence(assert, w->shadow);
        tp_win_done(w, -1);
        /* Collective: the names the ranks registered since. */
        tp_win_names(w);
    }
    return rc;
}

/* A synchronisation of `win` (`DATA`), repeated on its shadow window (`SHADOW`, which
 * names it `w->shadow`); `DONE` >= -1: the operations towards that target (-1: all)
 * completed, -2: none did. */
#define TP_SYNC(DATA, SHADOW, DONE)                                                            \
    int rc = DATA;                                                                             \
    struct tp_win *w = tp_win_of(win);                                                         \
    if (rc == MPI_SUCCESS && w) {                                                              \
        SHADOW;                                                                                \
        if ((DONE) >= -1)                                                                      \
            tp_win_done(w, DONE);                                                              \
    }                                                                                          \
    return rc;

int MPI_Win_lock(int type, int rank, int assert, MPI_Win win) {
    TP_SYNC(PMPI_Win_lock(type, rank, assert, win), PMPI_Win_lock(type, rank, assert, w->shadow),
            -2)
}
int MPI_Win_unlock(int rank, MPI_Win win) {
    TP_SYNC(PMPI_Win_unlock(rank, win), PMPI_Win_unlock(rank, w->shadow), rank)
}
int MPI_Win_lock_all(int assert, MPI_Win win) {
    TP_SYNC(PMPI_Win_lock_all(assert, win), PMPI_Win_lock_all(assert, w->shadow), -2)
}
int MPI_Win_unlock_all(MPI_Win win) {
    TP_SYNC(PMPI_Win_unlock_all(win), PMPI_Win_unlock_all(w->shadow), -1)
}
int MPI_Win_flush(int rank, MPI_Win win) {
    TP_SYNC(PMPI_Win_flush(rank, win), PMPI_Win_flush(rank, w->shadow), rank)
}
int MPI_Win_flush_all(MPI_Win win) {
    TP_SYNC(PMPI_Win_flush_all(win), PMPI_Win_flush_all(w->shadow), -1)
}
int MPI_Win_flush_local(int rank, MPI_Win win) {
    TP_SYNC(PMPI_Win_flush_local(rank, win), PMPI_Win_flush_local(rank, w->shadow), rank)
}
int MPI_Win_flush_local_all(MPI_Win win) {
    TP_SYNC(PMPI_Win_flush_local_all(win), PMPI_Win_flush_local_all(w->shadow), -1)
}
int MPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
    TP_SYNC(PMPI_Win_post(group, assert, win), PMPI_Win_post(group, assert, w->shadow), -2)
}
int MPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
    TP_SYNC(PMPI_Win_start(group, assert, win), PMPI_Win_start(group, assert, w->shadow), -2)
}
int MPI_Win_complete(MPI_Win win) {
    TP_SYNC(PMPI_Win_complete(win), PMPI_Win_complete(w->shadow), -1)
}
int MPI_Win_wait(MPI_Win win) {
    TP_SYNC(PMPI_Win_wait(win), PMPI_Win_wait(w->shadow), -2)
}
