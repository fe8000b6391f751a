/* schedule.h - the schedule of a match or tournament: which engine sits
 * in which seat of game k, and which games share an opening or a deal.
 * Pure functions of the match settings and the game number, so shards,
 * --resume, --concurrency and `parallel` all see the same schedule. */
#ifndef REF_SCHEDULE_H
#define REF_SCHEDULE_H

struct ref_match;

/* --tournament */
enum { REF_TOUR_DEFAULT = 0, REF_TOUR_ROUND_ROBIN, REF_TOUR_GAUNTLET };

/* Pairings (encounters) in one round of a two-seat schedule of neng
 * engines: round-robin every pair (i<j, in order (0,1) (0,2) .. (1,2) ..),
 * gauntlet engine 0 against each other (0,1) (0,2) ..  Two engines: one. */
int ref_sched_pairings(int tour, int neng);
/* Pairing p (0-based) of a round: engines *a < *b. */
void ref_sched_pairing(int tour, int neng, int p, int *a, int *b);
/* Games in the whole schedule: rounds x games-per-encounter x pairings
 * (two seats), rounds x games (N seats: the whole field is one encounter). */
long long ref_sched_total(int nseats, int neng, int tour, int rounds,
                          int per_encounter);

/* Game (1-based) of match m: the engine in each seat. */
void ref_schedule(const struct ref_match *m, int game, int seat_eng[]);
/* The group of a game: games sharing an opening (two seats: a colour-
 * swapped pair) or a deal (N seats: one rotation of nseats games). */
int ref_group_of(const struct ref_match *m, int game);
int ref_group_size(const struct ref_match *m);
/* The opening slot of a game (0-based): which new opening it plays, by
 * --openings policy=: default, its group; encounter, its encounter
 * (round x pairings + pairing); round, its round. */
int ref_opening_slot(const struct ref_match *m, int game);

#endif
