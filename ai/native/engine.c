/* The strongest level's search, compiled: the same DVONN rules as the `rules` package, an
 * alpha-beta search with a transposition table, and the evaluation of ai/evaluation.py with
 * PrimaDvonna-style field weights (stacks and targets near the DVONN pieces count more).
 *
 * Called through ctypes by ai/native/__init__.py, which checks every move it returns against
 * `rules` (and tests/ai/test_native.py plays thousands of random positions through both).
 * No Python headers: plain C99 with one exported entry point per service.
 *
 * Board layout: cell (letter L, row R) is bit R * 12 + L of a 64-bit mask, as in
 * rules/board.py, so a step to a neighbour is a shift by 1, 12 or 13 and never wraps onto a
 * real cell (column 11 is never a cell).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;

#define NCELLS 49
#define PLACEMENT_PLIES 49
#define DVONN_PIECES 3
#define MAXH 50
#define MAXMOVES 256
#define MAXPLY 100 /* below EXACT_DEPTH, which marks proven values */

#define PIECE_VALUE 10000
#define WIN_BONUS 100000
#define HEURISTIC_LIMIT (WIN_BONUS - 1)
#define INF 100000000
#define EXACT_DEPTH 127

/* Moves: a jump is (source bit, target bit); a placement has source PLACE; a pass, PASS. */
#define PLACE 254
#define PASS 255
typedef struct {
    uint8_t src, dst;
} Move;

/* --- board tables ---------------------------------------------------------------------- */

static int cell_bit[NCELLS];
static int bit_cell[64];
static u64 all_mask, edge_mask;
static u64 neighbour_mask[64];
static int neighbour_count[64];
static u64 jump_mask[64][MAXH];
static int distance_table[64][64];
static u64 zobrist[64][MAXH][4];
static u64 zobrist_dvonn[64];
static u64 zobrist_black_to_act, zobrist_placing;
static int tables_ready;

static const int row_lo[5] = {0, 0, 0, 1, 2};
static const int row_hi[5] = {8, 9, 10, 10, 10};
static const int dirs[6][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}};

static int on_board(int letter, int row)
{
    return row >= 0 && row < 5 && letter >= row_lo[row] && letter <= row_hi[row];
}

static u64 splitmix(u64 *state)
{
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* ln(x) for x >= 1, for the table below (no libm): halvings, then 2 atanh((x-1)/(x+1)). */
static double natural_log(double x)
{
    double halvings = 0;
    for (; x > 2; x /= 2) ++halvings;
    if (halvings > 0) return halvings * natural_log(2) + natural_log(x);
    double y = (x - 1) / (x + 1), term = y, sum = 0;
    for (int k = 1; k < 60; k += 2, term *= y * y) sum += term / k;
    return 2 * sum;
}

/* How many plies shallower the i-th move at this depth is searched first when reductions are
 * 2: about ln(depth) * ln(i) / 2, at least one and leaving at least one ply. */
static int8_t reduction_table[MAXPLY + 1][MAXMOVES]; /* filled by init_tables */

static void init_reductions(void)
{
    for (int d = 0; d <= MAXPLY; ++d)
        for (int j = 0; j < MAXMOVES; ++j) {
            double r = d > 0 && j > 0 ? natural_log(d) * natural_log(j) / 2 + 0.5 : 0;
            int most = d - 2 > 1 ? d - 2 : 1; /* the child keeps at least a ply */
            reduction_table[d][j] = (int8_t)(r < 1 ? 1 : r > most ? most : r);
        }
}

static inline int reduction(int depth, int i)
{
    return reduction_table[depth > MAXPLY ? MAXPLY : depth][i];
}

static void init_tables(void)
{
    if (tables_ready) return;
    int cell = 0;
    for (int b = 0; b < 64; ++b) bit_cell[b] = -1;
    for (int row = 0; row < 5; ++row) {
        for (int letter = row_lo[row]; letter <= row_hi[row]; ++letter) {
            int b = row * 12 + letter;
            cell_bit[cell] = b;
            bit_cell[b] = cell;
            all_mask |= 1ULL << b;
            ++cell;
        }
    }
    for (int c = 0; c < NCELLS; ++c) {
        int b = cell_bit[c], letter = b % 12, row = b / 12;
        for (int d = 0; d < 6; ++d) {
            int l2 = letter + dirs[d][0], r2 = row + dirs[d][1];
            if (on_board(l2, r2)) {
                neighbour_mask[b] |= 1ULL << (r2 * 12 + l2);
                ++neighbour_count[b];
            }
        }
        if (neighbour_count[b] < 6) edge_mask |= 1ULL << b;
        for (int h = 1; h < MAXH; ++h) {
            for (int d = 0; d < 6; ++d) {
                int l2 = letter + dirs[d][0] * h, r2 = row + dirs[d][1] * h;
                if (on_board(l2, r2)) jump_mask[b][h] |= 1ULL << (r2 * 12 + l2);
            }
        }
        for (int c2 = 0; c2 < NCELLS; ++c2) {
            int b2 = cell_bit[c2];
            int dq = (letter - row) - (b2 % 12 - b2 / 12), dr = row - b2 / 12;
            int s = dq + dr;
            distance_table[b][b2] = (abs(dq) + abs(dr) + abs(s)) / 2;
        }
    }
    u64 state = 0x5EED5EED1234ULL;
    for (int b = 0; b < 64; ++b) {
        for (int h = 0; h < MAXH; ++h)
            for (int t = 0; t < 4; ++t) zobrist[b][h][t] = splitmix(&state);
        zobrist_dvonn[b] = splitmix(&state);
    }
    zobrist_black_to_act = splitmix(&state);
    zobrist_placing = splitmix(&state);
    init_reductions();
    tables_ready = 1;
}

static inline u64 spread(u64 m)
{
    return m | (m << 1) | (m >> 1) | (m << 12) | (m >> 12) | (m << 13) | (m >> 13);
}

static inline int lowest(u64 m) { return __builtin_ctzll(m); }
static inline int popcount(u64 m) { return __builtin_popcountll(m); }

/* --- positions ------------------------------------------------------------------------- */

typedef struct {
    u64 occupied, white, black, dvonn; /* white/black: stacks topped by that colour */
    u64 key;                           /* the stacks' hash (who acts is added by full_key) */
    int ply;
    uint8_t height[64];
} Board;

static inline int top_of(const Board *bd, int b)
{
    u64 bit = 1ULL << b;
    return (bd->white & bit) ? 1 : (bd->black & bit) ? 2 : 3;
}

static inline u64 stack_key(const Board *bd, int b)
{
    u64 bit = 1ULL << b;
    if (!(bd->occupied & bit)) return 0;
    return zobrist[b][bd->height[b]][top_of(bd, b)] ^ ((bd->dvonn & bit) ? zobrist_dvonn[b] : 0);
}

static inline int white_to_act(int ply)
{
    return ply < PLACEMENT_PLIES ? (ply % 2 == 0) : ((ply - PLACEMENT_PLIES) % 2 == 0);
}

static inline u64 full_key(const Board *bd)
{
    u64 k = bd->key;
    if (!white_to_act(bd->ply)) k ^= zobrist_black_to_act;
    if (bd->ply < PLACEMENT_PLIES) k ^= zobrist_placing;
    return k;
}

/* Cells as three bytes each, in cell order: height, top (0 empty, 1 W, 2 B, 3 D), has DVONN. */
static int load_board(Board *bd, const uint8_t *cells, int ply)
{
    memset(bd, 0, sizeof *bd);
    bd->ply = ply;
    for (int c = 0; c < NCELLS; ++c) {
        int h = cells[3 * c], top = cells[3 * c + 1], d = cells[3 * c + 2];
        int b = cell_bit[c];
        u64 bit = 1ULL << b;
        if (h == 0) continue;
        if (h >= MAXH || top < 1 || top > 3) return -1;
        bd->height[b] = (uint8_t)h;
        bd->occupied |= bit;
        if (top == 1) bd->white |= bit;
        if (top == 2) bd->black |= bit;
        if (d || top == 3) bd->dvonn |= bit;
        bd->key ^= stack_key(bd, b);
    }
    return 0;
}

static void store_board(const Board *bd, uint8_t *cells)
{
    for (int c = 0; c < NCELLS; ++c) {
        int b = cell_bit[c];
        u64 bit = 1ULL << b;
        int occupied = (bd->occupied & bit) != 0;
        cells[3 * c] = occupied ? bd->height[b] : 0;
        cells[3 * c + 1] = occupied ? (uint8_t)top_of(bd, b) : 0;
        cells[3 * c + 2] = (bd->dvonn & bit) ? 1 : 0;
    }
}

static inline u64 mobile_stacks(const Board *bd, u64 mine)
{
    u64 empty = all_mask & ~bd->occupied;
    return mine & (spread(empty) | edge_mask);
}

static int has_jump(const Board *bd, u64 mine)
{
    for (u64 m = mobile_stacks(bd, mine); m; m &= m - 1) {
        int b = lowest(m);
        if (jump_mask[b][bd->height[b]] & bd->occupied) return 1;
    }
    return 0;
}

/* Every legal action, as rules.legal_moves: placements, jumps, one pass, or none (over). */
static int generate(const Board *bd, Move *out)
{
    int n = 0;
    if (bd->ply < PLACEMENT_PLIES) {
        for (u64 m = all_mask & ~bd->occupied; m; m &= m - 1) {
            out[n].src = PLACE;
            out[n].dst = (uint8_t)lowest(m);
            ++n;
        }
        return n;
    }
    int white = white_to_act(bd->ply);
    u64 mine = white ? bd->white : bd->black;
    for (u64 m = mobile_stacks(bd, mine); m; m &= m - 1) {
        int b = lowest(m);
        for (u64 t = jump_mask[b][bd->height[b]] & bd->occupied; t; t &= t - 1) {
            out[n].src = (uint8_t)b;
            out[n].dst = (uint8_t)lowest(t);
            ++n;
        }
    }
    if (n == 0 && has_jump(bd, white ? bd->black : bd->white)) {
        out[0].src = PASS;
        out[0].dst = PASS;
        n = 1;
    }
    return n;
}

/* The position after a legal move (no checks: the caller generated it). */
static void make_move(const Board *bd, Move mv, Board *out)
{
    *out = *bd;
    out->ply = bd->ply + 1;
    if (mv.src == PASS) return;
    if (mv.src == PLACE) {
        int b = mv.dst, ply = bd->ply;
        u64 bit = 1ULL << b;
        out->occupied |= bit;
        out->height[b] = 1;
        if (ply < DVONN_PIECES)
            out->dvonn |= bit;
        else if (ply % 2 == 0)
            out->white |= bit;
        else
            out->black |= bit;
        out->key ^= stack_key(out, b);
        return;
    }
    int s = mv.src, t = mv.dst;
    u64 sbit = 1ULL << s, tbit = 1ULL << t;
    out->key ^= stack_key(bd, s) ^ stack_key(bd, t);
    int moving_white = (bd->white & sbit) != 0;
    out->height[t] = (uint8_t)(bd->height[t] + bd->height[s]);
    out->height[s] = 0;
    out->occupied &= ~sbit;
    if (bd->dvonn & sbit) out->dvonn = (out->dvonn & ~sbit) | tbit;
    if (moving_white) {
        out->white = (out->white & ~sbit) | tbit;
        out->black &= ~tbit;
    } else {
        out->black = (out->black & ~sbit) | tbit;
        out->white &= ~tbit;
    }
    out->key ^= stack_key(out, t);
    /* Stacks no longer linked to a DVONN piece through occupied cells leave the board. */
    u64 occupied = out->occupied, reached = out->dvonn & occupied, before;
    do {
        before = reached;
        reached = spread(reached) & occupied;
    } while (reached != before);
    for (u64 gone = occupied & ~reached; gone; gone &= gone - 1) {
        int b = lowest(gone);
        out->key ^= stack_key(out, b);
        out->height[b] = 0;
    }
    out->occupied = reached;
    out->white &= reached;
    out->black &= reached;
    out->dvonn &= reached;
}

/* White's pieces minus Black's, in the stacks each controls. */
static int margin_for_white(const Board *bd)
{
    int margin = 0;
    for (u64 m = bd->white; m; m &= m - 1) margin += bd->height[lowest(m)];
    for (u64 m = bd->black; m; m &= m - 1) margin -= bd->height[lowest(m)];
    return margin;
}

static int final_value(const Board *bd)
{
    int diff = margin_for_white(bd);
    if (!white_to_act(bd->ply)) diff = -diff;
    if (diff > 0) return WIN_BONUS + diff * PIECE_VALUE;
    if (diff < 0) return -WIN_BONUS + diff * PIECE_VALUE;
    return 0;
}

/* --- evaluation ------------------------------------------------------------------------ */

/* The weights, in the order ai/native/__init__.py passes them. */
typedef struct {
    int stacks, moves, to_dvonn, to_enemy, score; /* movement, per unit of field value */
    int field_base, field_bonus, field_shift;     /* a cell's value: base + bonus >> shift*d */
    int next_to_dvonn, near_dvonn, edge, dvonn_distance, bunched; /* placement, per piece */
    int placement_model; /* 1: the fitted placement model below instead of those five terms */
    int reductions;      /* 1: moves ordered late are first searched a ply shallower; 2: more */
    int capture, stuck, guarded, best; /* movement, per piece (see movement_terms) */
    /* The movement weights again for late in the game: the evaluation moves from the first
     * set to this one over the first TAPER_PLIES moves (a tapered evaluation). */
    int late_stacks, late_moves, late_to_dvonn, late_to_enemy, late_score;
    int late_capture, late_stuck, late_guarded, late_best;
} Weights;
#define NWEIGHTS 28
#define TAPER_PLIES 40

static Weights weights;

/* The field values for one set of DVONN cells, cached (they change only when one moves). */
static u64 field_dvonn = ~0ULL;
static int field_value[64];

static const int *fields_for(u64 dvonn)
{
    if (dvonn != field_dvonn) {
        for (int b = 0; b < 64; ++b) field_value[b] = weights.field_base;
        for (u64 m = dvonn; m; m &= m - 1) {
            int d = lowest(m);
            for (int c = 0; c < NCELLS; ++c) {
                int b = cell_bit[c], shift = weights.field_shift * distance_table[d][b];
                field_value[b] += shift < 31 ? weights.field_bonus >> shift : 0;
            }
        }
        field_dvonn = dvonn;
    }
    return field_value;
}

static inline int field_sum(const int *fv, u64 m)
{
    int s = 0;
    for (; m; m &= m - 1) s += fv[lowest(m)];
    return s;
}

/* The movement evaluation's terms, White's minus Black's, before they are weighed: stacks,
 * moves, to_dvonn, to_enemy, score, capture (the heights of the enemy stacks a stack can jump
 * onto now), stuck (the pieces in stacks that cannot move), guarded (the pieces in stacks next
 * to or holding a DVONN piece), as Weights names them; then best (the tallest enemy stack the side to
 * act can jump onto now), for the side to act. Returns whether anyone can move. */
#define MOVEMENT_TERMS 9
static int movement_terms(const Board *bd, long *terms)
{
    const int *fv = fields_for(bd->dvonn);
    u64 occupied = bd->occupied;
    u64 free = spread(all_mask & ~occupied) | edge_mask;
    u64 guarded_cells = spread(bd->dvonn);
    int white_acts = white_to_act(bd->ply);
    int stacks = 0, moves = 0, to_dvonn = 0, to_enemy = 0, score = 0, can_move = 0;
    int capture = 0, stuck = 0, guarded = 0, best = 0;
    for (int side = 0; side < 2; ++side) {
        u64 mine = side == 0 ? bd->white : bd->black;
        u64 enemy = side == 0 ? bd->black : bd->white;
        int sign = side == 0 ? 1 : -1, acts = (side == 0) == white_acts;
        for (u64 m = mine; m; m &= m - 1) {
            int b = lowest(m), h = bd->height[b];
            u64 targets = jump_mask[b][h] & occupied;
            score += sign * h;
            stacks += sign * fv[b];
            moves += sign * field_sum(fv, targets);
            if (guarded_cells >> b & 1) guarded += sign * h;
            if (targets && (free >> b & 1)) {
                can_move = 1;
                to_dvonn += sign * field_sum(fv, targets & bd->dvonn);
                to_enemy += sign * field_sum(fv, targets & enemy);
                for (u64 t = targets & enemy; t; t &= t - 1) {
                    int th = bd->height[lowest(t)];
                    capture += sign * th;
                    if (acts && th > best) best = th;
                }
            } else {
                stuck += sign * h;
            }
        }
    }
    terms[0] = stacks;
    terms[1] = moves;
    terms[2] = to_dvonn;
    terms[3] = to_enemy;
    terms[4] = score;
    terms[5] = capture;
    terms[6] = stuck;
    terms[7] = guarded;
    terms[8] = best;
    return can_move;
}

/* Movement: the heuristic for the side to act, or the exact value when nobody can move. */
static int evaluate_movement(const Board *bd, int *exact)
{
    long t[MOVEMENT_TERMS];
    if (!movement_terms(bd, t)) {
        *exact = 1;
        return final_value(bd);
    }
    *exact = 0;
    const Weights *w = &weights;
    long early = ((long)w->stacks * t[0] + (long)w->moves * t[1] + (long)w->to_dvonn * t[2] +
                  (long)w->to_enemy * t[3]) /
                     64 +
                 (long)w->score * t[4] + (long)w->capture * t[5] + (long)w->stuck * t[6] +
                 (long)w->guarded * t[7];
    long late = ((long)w->late_stacks * t[0] + (long)w->late_moves * t[1] +
                 (long)w->late_to_dvonn * t[2] + (long)w->late_to_enemy * t[3]) /
                    64 +
                (long)w->late_score * t[4] + (long)w->late_capture * t[5] +
                (long)w->late_stuck * t[6] + (long)w->late_guarded * t[7];
    long k = bd->ply - PLACEMENT_PLIES;
    if (k > TAPER_PLIES) k = TAPER_PLIES;
    long value = (early * (TAPER_PLIES - k) + late * k) / TAPER_PLIES;
    if (!white_to_act(bd->ply)) value = -value;
    value += ((long)w->best * (TAPER_PLIES - k) + (long)w->late_best * k) * t[8] / TAPER_PLIES;
    if (value > HEURISTIC_LIMIT) value = HEURISTIC_LIMIT;
    if (value < -HEURISTIC_LIMIT) value = -HEURISTIC_LIMIT;
    return (int)value;
}

/* Placement: what each piece is worth by where it stands (ai/evaluation.py's piece_table). */
static u64 piece_dvonn = ~0ULL;
static int piece_value[64];

static const int *pieces_for(u64 dvonn)
{
    if (dvonn != piece_dvonn) {
        for (int c = 0; c < NCELLS; ++c) {
            int b = cell_bit[c], total = 0, nearest = 99;
            for (u64 m = dvonn; m; m &= m - 1) {
                int d = distance_table[lowest(m)][b];
                total += d;
                if (d < nearest) nearest = d;
            }
            int v = -weights.dvonn_distance * total;
            if (nearest == 1) v += weights.next_to_dvonn;
            if (nearest == 2) v += weights.near_dvonn;
            if (edge_mask >> b & 1) v += weights.edge;
            piece_value[b] = v;
        }
        piece_dvonn = dvonn;
    }
    return piece_value;
}

static int side_value(u64 mine, const int *pv)
{
    int v = 0;
    for (u64 m = mine; m; m &= m - 1) {
        int b = lowest(m);
        int others = neighbour_count[b] - popcount(neighbour_mask[b] & mine);
        v += pv[b];
        if (others < 2) v -= weights.bunched * (2 - others);
    }
    return v;
}

/* The fitted placement model (tools/engine/placement_fit.py writes placement_model.h; off in every
 * level: it played worse than the table above): each placed piece is worth a weight chosen by
 * its kind, and the model predicts the value of the position after the last placement. A piece's kind: its distance to the
 * nearest DVONN piece (1, 2, 3, 4 or more), whether it stands on the edge, and how many of its
 * neighbours hold its own colour and the other's (0, 1, 2, 3 or more each). The weights
 * depend on the stage of the placement (PLACEMENT_STAGES stages of equal length). */
#include "placement_model.h"

static u64 kind_dvonn = ~0ULL;
static int kind_base[64]; /* the distance and edge part of each cell's piece kind */

static const int *kind_bases_for(u64 dvonn)
{
    if (dvonn != kind_dvonn) {
        for (int c = 0; c < NCELLS; ++c) {
            int b = cell_bit[c], nearest = 4;
            for (u64 m = dvonn; m; m &= m - 1) {
                int d = distance_table[lowest(m)][b];
                if (d < nearest) nearest = d;
            }
            if (nearest < 1) nearest = 1;
            kind_base[b] = (((nearest - 1) * 2) + (int)(edge_mask >> b & 1)) * 16;
        }
        kind_dvonn = dvonn;
    }
    return kind_base;
}

static inline int stage_of(int ply)
{
    int stage = (ply - DVONN_PIECES) * PLACEMENT_STAGES / (PLACEMENT_PLIES - DVONN_PIECES);
    return stage < 0 ? 0 : stage >= PLACEMENT_STAGES ? PLACEMENT_STAGES - 1 : stage;
}

static inline int piece_kind(const int *base, int b, u64 mine, u64 theirs)
{
    int own = popcount(neighbour_mask[b] & mine), other = popcount(neighbour_mask[b] & theirs);
    return base[b] + (own < 3 ? own : 3) * 4 + (other < 3 ? other : 3);
}

/* Adds each piece's kind to counts (+1 for White's, -1 for Black's); returns the stage. */
static int count_kinds(const Board *bd, int *counts)
{
    const int *base = kind_bases_for(bd->dvonn);
    for (u64 m = bd->white; m; m &= m - 1) ++counts[piece_kind(base, lowest(m), bd->white, bd->black)];
    for (u64 m = bd->black; m; m &= m - 1) --counts[piece_kind(base, lowest(m), bd->black, bd->white)];
    return stage_of(bd->ply);
}

static int model_value(const Board *bd)
{
    const int *base = kind_bases_for(bd->dvonn);
    const int *w = placement_weights[stage_of(bd->ply)];
    int v = 0;
    for (u64 m = bd->white; m; m &= m - 1) v += w[piece_kind(base, lowest(m), bd->white, bd->black)];
    for (u64 m = bd->black; m; m &= m - 1) v -= w[piece_kind(base, lowest(m), bd->black, bd->white)];
    return v;
}

static int evaluate_placement(const Board *bd)
{
    if (bd->ply <= DVONN_PIECES) return 0;
    int v;
    if (weights.placement_model) {
        v = model_value(bd);
    } else {
        const int *pv = pieces_for(bd->dvonn);
        v = side_value(bd->white, pv) - side_value(bd->black, pv);
    }
    return white_to_act(bd->ply) ? v : -v;
}

static int evaluate(const Board *bd, int *exact)
{
    if (bd->ply >= PLACEMENT_PLIES) return evaluate_movement(bd, exact);
    *exact = 0;
    return evaluate_placement(bd);
}

static void set_weights(const int *weights_in)
{
    memcpy(&weights, weights_in, sizeof weights);
    if (weights.field_shift < 0) weights.field_shift = 0; /* a shift by a negative count is UB */
    field_dvonn = piece_dvonn = ~0ULL;                    /* the caches held other weights */
}

/* --- the transposition table ----------------------------------------------------------- */

enum { BOUND_EXACT = 0, BOUND_LOWER = 1, BOUND_UPPER = 2 };

typedef struct {
    u64 key;
    int32_t value;
    uint8_t depth, bound, age;
    Move move;
} Entry;

#define TT_BITS 20
#define TT_SIZE (1u << TT_BITS)
static Entry *table;
static uint8_t age;

static int table_ready(void)
{
    if (!table) table = calloc(TT_SIZE, sizeof *table);
    return table != NULL;
}

static inline Entry *probe(u64 key) { return &table[key & (TT_SIZE - 1)]; }

static inline void store(u64 key, int depth, int value, int bound, Move mv)
{
    Entry *e = probe(key);
    if (e->age == age && e->key != key && e->depth > depth) return; /* keep the deeper one */
    e->key = key;
    e->value = value;
    e->depth = (uint8_t)depth;
    e->bound = (uint8_t)bound;
    e->age = age;
    e->move = mv;
}

/* --- the search ------------------------------------------------------------------------ */

typedef struct {
    long long nodes, max_nodes;
    double deadline;
    int stopped;
    int history[64][64];
} Search;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int tick(Search *s)
{
    ++s->nodes;
    if (s->max_nodes > 0 && s->nodes > s->max_nodes) s->stopped = 1;
    if ((s->nodes & 1023) == 0 && s->deadline > 0 && now() >= s->deadline) s->stopped = 1;
    return s->stopped;
}

static inline int same_move(Move a, Move b) { return a.src == b.src && a.dst == b.dst; }

#define SCORE_TABLE (1 << 30)
#define SCORE_CAPTURE (1 << 28)
#define SCORE_DVONN (1 << 27)
#define SCORE_OWN (-(1 << 26))

/* How likely each move is best: the table's move, captures (taller first), onto DVONN,
 * history; own stacks last. Placements: by what a piece there would be worth. */
static void score_moves(const Search *s, const Board *bd, const Move *moves, int n, Move first,
                        int *scores)
{
    const int *pv = bd->ply < PLACEMENT_PLIES && bd->ply > DVONN_PIECES ? pieces_for(bd->dvonn)
                                                                        : NULL;
    u64 enemy = white_to_act(bd->ply) ? bd->black : bd->white;
    for (int i = 0; i < n; ++i) {
        Move mv = moves[i];
        int sc = 0;
        if (mv.src == PLACE) {
            sc = pv ? pv[mv.dst] : 0;
        } else if (mv.src != PASS) {
            u64 tbit = 1ULL << mv.dst;
            sc = s->history[mv.src][mv.dst];
            if (enemy & tbit)
                sc += SCORE_CAPTURE + bd->height[mv.dst] * 16;
            else if (bd->dvonn & tbit)
                sc += SCORE_DVONN;
            else if (bd->occupied & tbit & ~(bd->dvonn))
                sc += SCORE_OWN;
        }
        if (same_move(mv, first)) sc = SCORE_TABLE;
        scores[i] = sc;
    }
}

/* Brings the first of the highest scored moves from i on to i, the others keeping their order:
 * picking 0, 1, ... in turn gives the stable sort's order, and a node cut off after its first
 * moves never sorts the rest. */
static void pick_move(Move *moves, int *scores, int i, int n)
{
    int j = i;
    for (int k = i + 1; k < n; ++k)
        if (scores[k] > scores[j]) j = k;
    if (j == i) return;
    Move mv = moves[j];
    int sc = scores[j];
    memmove(&moves[i + 1], &moves[i], (size_t)(j - i) * sizeof *moves);
    memmove(&scores[i + 1], &scores[i], (size_t)(j - i) * sizeof *scores);
    moves[i] = mv;
    scores[i] = sc;
}

/* Insertion sort of moves[from..n), stable: equal moves keep the caller's (seeded) order. */
static void sort_moves(Move *moves, int *scores, int from, int n)
{
    for (int i = from + 1; i < n; ++i) {
        Move mv = moves[i];
        int sc = scores[i], j = i - 1;
        while (j >= from && scores[j] < sc) {
            moves[j + 1] = moves[j];
            scores[j + 1] = scores[j];
            --j;
        }
        moves[j + 1] = mv;
        scores[j + 1] = sc;
    }
}

static const Move NO_MOVE = {0, 0};

/* A node picks its first moves one at a time, then sorts the rest: 93% of cut-offs come on the
 * first move and 98% within three (80 movement positions of the match logs, depth 6). */
#define PICKED_MOVES 3

/* Negamax with alpha-beta (fail-soft) and principal variation search. *exact says whether
 * the value rests on finished games only, so that no deeper search can change it. */
static int negamax(Search *s, const Board *bd, int depth, int alpha, int beta, int *exact)
{
    if (tick(s)) {
        *exact = 0;
        return 0;
    }
    if (depth <= 0) {
        /* A leaf: evaluated, not looked up or stored (the table's miss cost as much as the
         * evaluation, and leaves would push out the entries that order moves). A placement
         * always has a move; the movement evaluation sees a finished game. */
        int leaf_exact = 0;
        int v = bd->ply >= PLACEMENT_PLIES ? evaluate_movement(bd, &leaf_exact)
                                           : evaluate_placement(bd);
        *exact = leaf_exact;
        return v;
    }
    u64 key = full_key(bd);
    Entry *e = probe(key);
    Move first = NO_MOVE;
    if (e->key == key && e->age == age) {
        first = e->move;
        if (e->depth >= depth || e->depth == EXACT_DEPTH) {
            int v = e->value;
            if (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && v >= beta) ||
                (e->bound == BOUND_UPPER && v <= alpha)) {
                *exact = e->depth == EXACT_DEPTH;
                return v;
            }
        }
    }
    Move moves[MAXMOVES];
    int n = generate(bd, moves);
    if (n == 0) {
        int v = final_value(bd);
        *exact = 1;
        store(key, EXACT_DEPTH, v, BOUND_EXACT, NO_MOVE);
        return v;
    }
    Board child;
    if (moves[0].src == PASS) {
        /* A forced pass costs no depth: the other side, who has a move, acts next. */
        make_move(bd, moves[0], &child);
        return -negamax(s, &child, depth, -beta, -alpha, exact);
    }
    int scores[MAXMOVES];
    score_moves(s, bd, moves, n, first, scores);
    int best = -INF, low = alpha, all_exact = 1;
    Move best_move = NO_MOVE;
    for (int i = 0; i < n; ++i) {
        int child_exact, v;
        if (i < PICKED_MOVES)
            pick_move(moves, scores, i, n);
        else if (i == PICKED_MOVES)
            sort_moves(moves, scores, i, n);
        make_move(bd, moves[i], &child);
        if (i == 0) {
            v = -negamax(s, &child, depth - 1, -beta, -low, &child_exact);
        } else {
            /* Late moves that take nothing: first shallower (a ply, or reduction()'s plies);
             * a move that then beats the best so far is searched again at full depth.
             * Captures, moves onto a DVONN piece and the table's move are ordered above
             * SCORE_DVONN (history alone never gets near it), so the score tells them apart. */
            int reduce = weights.reductions && depth >= 3 && i >= 3 && scores[i] < SCORE_DVONN &&
                         bd->ply >= PLACEMENT_PLIES;
            if (reduce && weights.reductions == 2) reduce = reduction(depth, i);
            v = -negamax(s, &child, depth - 1 - reduce, -low - 1, -low, &child_exact);
            if (reduce && !s->stopped && v > low)
                v = -negamax(s, &child, depth - 1, -low - 1, -low, &child_exact);
            /* Again with the whole window above low, not above v: v may rest on estimates,
             * and a search failing low at v gives only an upper bound, which would be taken
             * for the move's value (and called exact when its leaves are finished games). */
            if (!s->stopped && low < v && v < beta)
                v = -negamax(s, &child, depth - 1, -beta, -low, &child_exact);
        }
        if (s->stopped) {
            *exact = 0;
            return 0;
        }
        all_exact &= child_exact;
        if (v > best) {
            best = v;
            best_move = moves[i];
            if (v > low) {
                low = v;
                if (low >= beta) {
                    if (moves[i].src < 64) s->history[moves[i].src][moves[i].dst] += depth * depth;
                    break;
                }
            }
        }
    }
    int bound = best <= alpha ? BOUND_UPPER : best >= beta ? BOUND_LOWER : BOUND_EXACT;
    *exact = all_exact;
    store(key, all_exact ? EXACT_DEPTH : depth, best, bound, best_move);
    return best;
}

typedef struct {
    Move move;
    int value, depth, exact;
    long long nodes;
} Result;

static u64 rng_state;

static u64 next_random(void) { return splitmix(&rng_state); }

/* Iterative deepening from min_depth to max_depth. Stops at the hard deadline or node limit
 * (keeping the last finished iteration's move, or the interrupted one's best so far, whose
 * first move was the previous best), once solved, or when an iteration ends after `soft`. */
static void iterate(const Board *root, int min_depth, int max_depth, double soft, Search *s,
                    Result *out)
{
    Move moves[MAXMOVES];
    int scores[MAXMOVES];
    int n = generate(root, moves);
    for (int i = n - 1; i > 0; --i) { /* seeded shuffle: ties go to a seeded choice */
        int j = (int)(next_random() % (u64)(i + 1));
        Move tmp = moves[i];
        moves[i] = moves[j];
        moves[j] = tmp;
    }
    score_moves(s, root, moves, n, NO_MOVE, scores);
    sort_moves(moves, scores, 0, n);
    out->move = moves[0];
    out->value = 0;
    out->depth = 0;
    out->exact = 0;
    if (n == 1) return;
    for (int depth = min_depth; depth <= max_depth; ++depth) {
        int best = -INF, all_exact = 1, searched = 0;
        Move best_move = moves[0];
        for (int i = 0; i < n; ++i) {
            Board child;
            int child_exact, v;
            make_move(root, moves[i], &child);
            if (i == 0) {
                v = -negamax(s, &child, depth - 1, -INF, INF, &child_exact);
            } else {
                v = -negamax(s, &child, depth - 1, -best - 1, -best, &child_exact);
                if (!s->stopped && v > best)
                    v = -negamax(s, &child, depth - 1, -INF, -best, &child_exact);
            }
            if (s->stopped) break;
            ++searched;
            all_exact &= child_exact;
            if (v > best) {
                best = v;
                best_move = moves[i];
                /* The best so far goes first next time; the rest keep their order. */
                Move mv = moves[i];
                memmove(&moves[1], &moves[0], (size_t)i * sizeof(Move));
                moves[0] = mv;
            }
        }
        if (s->stopped) {
            /* moves[0] was searched first (the previous best); anything now ahead of it
             * proved better in this iteration. */
            if (searched > 0 && best > -INF) {
                out->move = best_move;
                out->value = best;
                out->depth = depth;
            }
            break;
        }
        out->move = best_move;
        out->value = best;
        out->depth = depth;
        out->exact = all_exact;
        if (all_exact) break;
        if (soft > 0 && now() >= soft) break;
    }
}

/* --- exported entry points ------------------------------------------------------------- */

/* Search the position. `weights_in` holds NWEIGHTS ints; `hard`/`soft` are seconds from the
 * call (0: none); `max_nodes` 0 for none. out: [kind, source cell, target cell, value, depth,
 * exact, nodes / 2^31, nodes % 2^31], kind 0 jump, 1 place (target), 2 pass.
 * Returns 0, or -1 for a bad board, -2 for a finished game, -3 out of memory. */
int dvonn_search(const uint8_t *cells, int ply, const int *weights_in, double hard, double soft,
                 long long max_nodes, int min_depth, int max_depth, unsigned long long seed,
                 int *out)
{
    init_tables();
    if (!table_ready()) return -3;
    Board root;
    if (ply < 0 || load_board(&root, cells, ply) != 0) return -1;
    Move moves[MAXMOVES];
    if (generate(&root, moves) == 0) return -2;
    set_weights(weights_in);
    if (++age == 0) { /* the ages have come round: entries of 255 searches ago would pass */
        memset(table, 0, TT_SIZE * sizeof *table);
        age = 1;
    }
    Search *s = calloc(1, sizeof *s);
    if (!s) return -3;
    double start = now();
    s->deadline = hard != 0 ? start + (hard > 0 ? hard : 0) : 0; /* < 0: already passed */
    s->max_nodes = max_nodes;
    rng_state = seed;
    Result r;
    if (min_depth < 1) min_depth = 1;
    if (max_depth > MAXPLY) max_depth = MAXPLY;
    iterate(&root, min_depth, max_depth, soft > 0 ? start + soft : 0, s, &r);
    int kind = r.move.src == PASS ? 2 : r.move.src == PLACE ? 1 : 0;
    out[0] = kind;
    out[1] = kind == 0 ? bit_cell[r.move.src] : -1;
    out[2] = kind == 2 ? -1 : bit_cell[r.move.dst];
    out[3] = r.value;
    out[4] = r.depth;
    out[5] = r.exact;
    out[6] = (int)(s->nodes >> 31);
    out[7] = (int)(s->nodes & 0x7FFFFFFF);
    free(s);
    return 0;
}

/* How many weights, movement terms and piece kinds this build has, for the caller to check
 * against its own: out[3]. */
void dvonn_sizes(int *out)
{
    out[0] = NWEIGHTS;
    out[1] = MOVEMENT_TERMS;
    out[2] = PIECE_KINDS;
}

/* The legal moves, as pairs (source cell or -1 for a placement, target cell or -1); a pass
 * is (-1, -1). Returns their number, or -1 for a bad board. For the tests. */
int dvonn_moves(const uint8_t *cells, int ply, int *out)
{
    init_tables();
    Board bd;
    if (load_board(&bd, cells, ply) != 0) return -1;
    Move moves[MAXMOVES];
    int n = generate(&bd, moves);
    for (int i = 0; i < n; ++i) {
        out[2 * i] = moves[i].src < 64 ? bit_cell[moves[i].src] : -1;
        out[2 * i + 1] = moves[i].dst < 64 ? bit_cell[moves[i].dst] : -1;
    }
    return n;
}

/* Play move (source, target) as dvonn_moves spells it; writes the new cells. For the tests. */
int dvonn_play(const uint8_t *cells, int ply, int source, int target, uint8_t *out_cells)
{
    init_tables();
    Board bd, child;
    if (load_board(&bd, cells, ply) != 0) return -1;
    Move mv;
    if (source < 0 && target < 0) {
        mv.src = mv.dst = PASS;
    } else if (source < 0) {
        mv.src = PLACE;
        mv.dst = (uint8_t)cell_bit[target];
    } else {
        mv.src = (uint8_t)cell_bit[source];
        mv.dst = (uint8_t)cell_bit[target];
    }
    make_move(&bd, mv, &child);
    store_board(&child, out_cells);
    return child.ply;
}

/* The placement model's features: counts[PIECE_KINDS] of each kind of piece, White's minus
 * Black's. Returns the stage, or -1 for a bad board. For tools/engine/placement_fit.py. */
int dvonn_piece_kinds(const uint8_t *cells, int ply, int *counts)
{
    init_tables();
    Board bd;
    if (load_board(&bd, cells, ply) != 0) return -1;
    memset(counts, 0, PIECE_KINDS * sizeof *counts);
    return count_kinds(&bd, counts);
}

/* The movement evaluation's terms in terms[MOVEMENT_TERMS], as movement_terms gives them for
 * these weights' field values. Returns 1 when a
 * player can move, 0 when the game is over, -1 for a bad board. For fitting the weights. */
int dvonn_movement_terms(const uint8_t *cells, int ply, const int *weights_in, int *terms)
{
    init_tables();
    Board bd;
    if (load_board(&bd, cells, ply) != 0) return -1;
    set_weights(weights_in); /* the field values the terms are weighed by come from them */
    long t[MOVEMENT_TERMS];
    int can_move = movement_terms(&bd, t);
    for (int i = 0; i < MOVEMENT_TERMS; ++i) terms[i] = (int)t[i];
    return can_move;
}

/* The static evaluation for the side to act; *exact set when the game is over. For tests. */
int dvonn_evaluate(const uint8_t *cells, int ply, const int *weights_in, int *exact)
{
    init_tables();
    Board bd;
    if (load_board(&bd, cells, ply) != 0) return 0;
    set_weights(weights_in);
    return evaluate(&bd, exact);
}
