/* bench_round: the order of one timing round's launches (docs/design.md
 * §4, "Ratios from paired rounds").
 *
 * A round launches its items in a shuffle of its own, so that what runs
 * just before a pattern varies from round to round. The patterns read
 * against a reference go in runs of at most BENCH_ROUND_RUN, with one
 * launch of their reference in the run's middle (its control slot): each
 * pattern's turn then has a reference launch at most three turns
 * away, where the host's state is the pattern's (two launches far apart
 * in a round differ by more than two neighbours do). A reference none
 * is set beside this round launches in its control slot half a round
 * after its own turn. Pure arithmetic over arrays the caller owns. */
#ifndef BENCH_ROUND_H
#define BENCH_ROUND_H

#include <stddef.h>

/* the most patterns set beside one control launch of their reference */
#define BENCH_ROUND_RUN 6

/* one launch of the round: item's own turn, or (control) a launch of the
 * reference item in its control slot */
typedef struct bench_round_entry {
    size_t item;
    int control;
} bench_round_entry;

/* The round's items, n of them: beside[i] >= 0 names the reference whose
 * control launch item i is set beside (i launches this round; -1: in its
 * own place of the shuffle, or not at all, as the caller decides);
 * control[i] says item i is a reference due a control launch this round.
 * A beside[i] whose reference is not due one counts as -1. */
typedef struct bench_round_input {
    size_t n;
    const long *beside;
    const unsigned char *control;
} bench_round_input;

/* Round k's shuffle of the n items (Fisher-Yates, drawn from splitmix64
 * seeded by k: the same in every run) and each item's place in it. */
void bench_round_shuffle(size_t *order, size_t *pos, size_t n, size_t k);

/* Round k's launches in order, into out (room for 3n entries): every item
 * once as its own turn, the items set beside a reference in runs of at
 * most BENCH_ROUND_RUN (as even as the count allows, in the shuffle's
 * order, at the place of the run's first item) around one control launch
 * of the reference, which comes first in a run of one on even rounds and
 * last on odd ones; and a control launch half a round after its own turn
 * for each reference due one that no item is set beside. scratch has room
 * for 3n entries. Returns the number of entries. */
size_t bench_round_sequence(const bench_round_input *in, const size_t *order, const size_t *pos, size_t k,
                            bench_round_entry *out, size_t *scratch);

/* the control launches a reference with `members` items set beside it
 * makes a round: one per run, and one half a round away when it has none
 * (a reference none is read against: 0) */
size_t bench_round_control_launches(size_t members, int is_reference);

#endif
