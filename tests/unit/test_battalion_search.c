/* test_battalion_search.c - Battalion players: determinizations agree with
 * the view they come from, and every player answers a legal action. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/game.h"
#include "core/util.h"
#include "engines/battalion/ismcts.h"
#include "engines/battalion/policy.h"
#include "engines/battalion/battalion.h"

static char err[GAME_ERR_LEN];

static void check_full(const struct bat_state *st)
{
    uint8_t n[BAT_NCARD] = {0};
    for (int s = 0; s < st->nseats; s++) {
        assert_int_equal(bat_set_count(st->hand[s]), st->size[s]);
        for (int c = 0; c < BAT_NCARD; c++) {
            n[c] = (uint8_t)(n[c] + st->hand[s][c]);
            assert_true(st->known[s][c] <= st->hand[s][c]);
        }
    }
    for (int i = 0; i < st->ndeck; i++)
        n[st->deck[i]]++;
    for (int i = 0; i < st->npile; i++)
        n[st->pile[i]]++;
    for (int c = 0; c < BAT_NCARD; c++)
        assert_int_equal(n[c] + st->battle[c], 2);
}

static void test_determinize_consistent(void **unused)
{
    struct rng r;
    struct bat_search_params p;
    int n = 0;
    (void)unused;
    bat_search_defaults(&p); /* the opponent model on */
    rng_seed(&r, 31);
    for (int g = 0; g < 30; g++) {
        struct bat_state st;
        bat_deal(&st, 3 + g % 4, 77, (uint64_t)g);
        while (!bat_over(&st)) {
            struct bat_state v, d, back;
            bat_make_view(&st, st.act, &v);
            for (int k = 0; k < 3; k++) {
                bat_determinize(&v, k ? &p : NULL, &r, &d);
                assert_int_equal(d.is_view, 0);
                check_full(&d);
                bat_make_view(&d, st.act, &back);
                assert_memory_equal(&back, &v, sizeof v);
                /* the seat to act can act in every determinization */
                {
                    gmove m[BAT_MAX_MOVES];
                    assert_true(bat_gen(&d, m, BAT_MAX_MOVES) != 0);
                }
                n++;
            }
            bat_play(&st, bat_heuristic_move(&st, &r));
        }
    }
    assert_true(n > 1000);
}

/* Cards of suit x in a set. */
static int suit_count(const uint8_t *set, int x)
{
    int n = 0;
    for (int c = x * 13; c < x * 13 + 13; c++)
        n += set[c];
    return n;
}

/* The opponent model is true of the heuristic player: in games it plays
 * against itself, every hand fits the limits the public record (`shown`)
 * and the bids put on it. */
static void test_record_fits_heuristic(void **unused)
{
    struct rng r;
    int limits = 0, bids = 0, collect = 0;
    (void)unused;
    rng_seed(&r, 41);
    for (int g = 0; g < 40; g++) {
        struct bat_state st;
        int N = 3 + g % 4, played[BAT_MAX_SEATS] = {0};
        bat_deal(&st, N, 78, (uint64_t)g);
        while (!bat_over(&st)) {
            gmove m;
            for (int s = 0; s < N; s++) {
                for (int x = 0; x < 4; x++) {
                    uint8_t e = st.shown[s][x];
                    if (!e)
                        continue;
                    assert_true(suit_count(st.hand[s], x) <=
                                bat_shown_drawn(e) +
                                    (bat_shown_kind(e) == BAT_SHOWN_SURRENDER));
                    limits++;
                }
                if (st.phase >= BAT_ATTACK && !played[s] && st.bid[s] >= 0) {
                    int best = bat_best_suit_points(st.hand[s]), hi = 0;
                    for (int i = 0; i < s; i++)
                        if (st.bid[i] > hi)
                            hi = st.bid[i];
                    if (st.bid[s] > 0)
                        assert_int_equal(best, st.bid[s] + 1);
                    else
                        assert_true(best <= (hi + 1 > 5 ? hi + 1 : 5));
                    bids++;
                }
                assert_true(bat_collection_fits(&st, s));
                collect += st.discard[s] != 0 || bat_set_count(st.known[s]) > 0;
            }
            m = bat_heuristic_move(&st, &r);
            if (bat_mkind(m) == BAT_M_ATTACK || bat_mkind(m) == BAT_M_DEFEND)
                played[st.act] = 1;
            bat_play(&st, m);
        }
    }
    assert_true(limits > 2000 && bids > 200 && collect > 2000);
}

/* Determinizations follow the model: a seat that attacked with all its
 * hearts and has drawn two cards since gets at most two hearts; one that
 * surrendered to spades and has drawn three at most four spades; without
 * the model, more happen. */
static void test_determinize_model(void **unused)
{
    static const char *pos =
        "view:1 phase=attack act=1 turn=12 attacks=5 last=d chips=12,8,9,11 "
        "bids=p,p,p,p hands=4c7cTc2dAh2h8h9hJhJh/+10/+10/+10 known=-/-/-/- "
        "shown=----/--p2-/---s3/---- battle=- pile=3c4c5c6c7c deck=59";
    struct bat_state v, d;
    struct bat_search_params p, off;
    struct rng r;
    int over_h = 0, over_s = 0;
    (void)unused;
    assert_int_equal(bat_parse_pos(&v, pos, err, sizeof err), 0);
    bat_search_defaults(&p);
    bat_search_defaults(&off);
    off.infer = 0;
    rng_seed(&r, 5);
    for (int i = 0; i < 400; i++) {
        bat_determinize(&v, &p, &r, &d);
        check_full(&d);
        assert_true(suit_count(d.hand[1], 2) <= 2);
        assert_true(suit_count(d.hand[2], 3) <= 4);
        bat_determinize(&v, &off, &r, &d);
        over_h += suit_count(d.hand[1], 2) > 2;
        over_s += suit_count(d.hand[2], 3) > 4;
    }
    assert_true(over_h > 20 && over_s > 5);
}

/* Determinizations follow the collection model: seat 2 discarded a club
 * last (its least kept card: no suit shorter than clubs, no twin of it), seat
 * 3 took the 7h from the discard pile (a twin or a suit of 5 points or more);
 * without the model, hands that break it are common. */
static void test_determinize_collection(void **unused)
{
    static const char *pos =
        "view:1 phase=bid act=1 turn=12 attacks=0 last=- chips=10,10,10,10 "
        "bids=-,-,-,- hands=4c7cTc2dAh2h8h9hJhJh/+10/7h+9/+10 known=-/-/7h/- "
        "discards=3d/5c/8s/Kd battle=- pile=Qc3s9s3d5c8sKd deck=57";
    struct bat_state v, d;
    struct bat_search_params p, off;
    struct rng r;
    int broken = 0, misses = 0;
    (void)unused;
    assert_int_equal(bat_parse_pos(&v, pos, err, sizeof err), 0);
    bat_search_defaults(&p);
    bat_search_defaults(&off);
    p.infer_collect = 1;
    off.infer_collect = 0;
    rng_seed(&r, 6);
    for (int i = 0; i < 400; i++) {
        bat_determinize(&v, &p, &r, &d);
        check_full(&d);
        for (int s = 1; s < 4; s++)
            misses += !bat_collection_fits(&d, s);
        bat_determinize(&v, &off, &r, &d);
        for (int s = 1; s < 4; s++)
            broken += !bat_collection_fits(&d, s);
    }
    /* rejection sampling gives up on a hand after some tries: rare misses */
    assert_true(misses < 60 && broken > 300);
}

/* collect_heuristic: the search plays the collection the heuristic's way
 * (the same draw, a discard of least keep value) and searches the rest;
 * without it the search's collection differs from the heuristic's. */
static void test_collect_heuristic(void **unused)
{
    struct rng r;
    struct bat_tree *t = bat_tree_new(1 << 14);
    struct bat_search_params on, off;
    int same = 0, differ = 0, searched = 0;
    (void)unused;
    rng_seed(&r, 33);
    bat_search_defaults(&on);
    on.collect_heuristic = 1;
    on.iterations = 200;
    bat_search_defaults(&off);
    off.iterations = 200;
    for (int g = 0; g < 8; g++) {
        struct bat_state st;
        bat_deal(&st, 3 + g % 4, 79, (uint64_t)g);
        while (st.phase <= BAT_BID) {
            struct bat_state v;
            struct bat_report rep, rep2;
            gmove a, b;
            bat_make_view(&st, st.act, &v);
            a = bat_search(t, &v, &on, &r, &rep);
            b = bat_search(t, &v, &off, &r, &rep2);
            assert_int_equal(bat_check(&st, a, err, sizeof err), 0);
            if (st.phase == BAT_BID) {
                searched += rep.iterations > 0;
            } else {
                gmove h = bat_heuristic_move(&v, &r);
                if (st.phase == BAT_DRAW) {
                    assert_true(a == h);
                } else {
                    int c = bat_mvalue(a);
                    assert_int_equal(bat_mkind(a), BAT_M_DISCARD);
                    for (int x = 0; x < BAT_NCARD; x++)
                        if (v.hand[v.act][x])
                            assert_true(bat_keep_value(v.hand[v.act], x) >=
                                        bat_keep_value(v.hand[v.act], c));
                }
                same += a == h;
                differ += b != h;
            }
            bat_play(&st, a);
        }
    }
    assert_true(same > 50 && differ > 10 && searched > 0);
    bat_tree_free(t);
}

/* A deal of N seats played the heuristic's way up to the first bid. */
static void to_bidding(struct bat_state *st, int N, uint64_t game, struct rng *r)
{
    bat_deal(st, N, 83, game);
    while (st->phase < BAT_BID)
        bat_play(st, bat_heuristic_move(st, r));
}

/* bid_heuristic: the search bids the heuristic's way, unsearched, and
 * searches every other phase. */
static void test_bid_heuristic(void **unused)
{
    struct rng r;
    struct bat_tree *t = bat_tree_new(1 << 14);
    struct bat_search_params on;
    int bids = 0;
    (void)unused;
    rng_seed(&r, 41);
    bat_search_defaults(&on);
    on.bid_heuristic = 1;
    on.iterations = 100;
    for (int g = 0; g < 12; g++) {
        struct bat_state st;
        to_bidding(&st, 3 + g % 4, (uint64_t)g, &r);
        while (st.phase == BAT_BID) {
            struct bat_state v;
            struct bat_report rep;
            gmove a;
            bat_make_view(&st, st.act, &v);
            assert_true(bat_unsearched(&on, &v));
            a = bat_search(t, &v, &on, &r, &rep);
            assert_true(a == bat_heuristic_move(&v, &r));
            assert_int_equal(rep.iterations, 0);
            bids++;
            bat_play(&st, a);
        }
        {
            struct bat_state v;
            struct bat_search_params ph;
            bat_make_view(&st, st.act, &v);
            assert_false(bat_unsearched(&on, &v));
            bat_search_defaults(&ph);
            ph.attack_heuristic = 1;
            assert_true(bat_unsearched(&ph, &v)); /* the first attack */
            ph.attack_heuristic = 0;
            ph.defend_heuristic = 1;
            assert_false(bat_unsearched(&ph, &v));
            bat_play(&st, bat_heuristic_move(&st, &r));
            bat_make_view(&st, st.act, &v);
            assert_true(st.phase != BAT_DEFEND || bat_unsearched(&ph, &v));
        }
    }
    assert_true(bids >= 12 * 3);
    bat_tree_free(t);
}

/* opp_model_bid: in the tree the seats bidding after the searching one bid
 * the heuristic's way (pass, or a bid of 5 or more above the high bid), so
 * no later seat's node has a bid of 4; without it they are searched and
 * some later seat's bid of 4 is tried. */
static void test_opp_model_bid(void **unused)
{
    struct rng r;
    struct bat_tree *t = bat_tree_new(1 << 16);
    struct bat_search_params p;
    int with_four[2] = {0, 0}, opp_bids[2] = {0, 0};
    (void)unused;
    rng_seed(&r, 42);
    for (int model = 0; model < 2; model++) {
        bat_search_defaults(&p);
        p.opp_model_bid = model;
        p.iterations = 2000;
        for (int g = 0; g < 6; g++) {
            struct bat_state st, v;
            struct bat_report rep;
            int32_t kids[BAT_MAX_CAND], kids2[BAT_MAX_CAND];
            gmove moves[BAT_MAX_CAND], moves2[BAT_MAX_CAND];
            int n;
            to_bidding(&st, 4, (uint64_t)g, &r);
            bat_make_view(&st, st.act, &v); /* seat 1 bids first */
            bat_search(t, &v, &p, &r, &rep);
            n = bat_tree_children(t, 0, kids, moves, BAT_MAX_CAND);
            assert_true(n >= 1);
            for (int i = 0; i < n; i++) {
                int hi = bat_mkind(moves[i]) == BAT_M_BID ? bat_mvalue(moves[i]) : 0;
                int n2 = bat_tree_children(t, kids[i], kids2, moves2, BAT_MAX_CAND);
                for (int j = 0; j < n2; j++) {
                    if (bat_mkind(moves2[j]) != BAT_M_BID)
                        continue;
                    opp_bids[model]++;
                    with_four[model] += bat_mvalue(moves2[j]) == 4;
                    if (model)
                        assert_true(bat_mvalue(moves2[j]) >= 5 &&
                                    bat_mvalue(moves2[j]) > hi);
                }
            }
        }
    }
    assert_int_equal(with_four[1], 0);
    assert_true(with_four[0] > 0 && opp_bids[1] > 0);
    bat_tree_free(t);
}

/* The heuristic's attack scores: its attack is one of the best scored (its
 * ties broken within 0.008); the softmax attack at a very low temperature
 * is the best scored one, at a high one it spreads over them all. */
static void test_softmax_attack(void **unused)
{
    struct rng r;
    int checked = 0, spread = 0;
    (void)unused;
    rng_seed(&r, 43);
    for (int g = 0; g < 20; g++) {
        struct bat_state st;
        bat_deal(&st, 3 + g % 4, 84, (uint64_t)g);
        while (!bat_over(&st)) {
            if (st.phase == BAT_ATTACK) {
                struct bat_state v;
                struct bat_attack_score sc[4 * BAT_MAX_SEATS];
                int n, bi = 0, second = -1, hit[4 * BAT_MAX_SEATS] = {0};
                gmove h;
                bat_make_view(&st, st.act, &v);
                n = bat_attack_scores(&v, sc);
                h = bat_heuristic_move(&v, &r);
                if (n == 0) {
                    assert_true(bat_softmax_attack(&v, 1, &r) == GAME_MOVE_NONE);
                } else {
                    for (int i = 1; i < n; i++)
                        if (sc[i].gain > sc[bi].gain)
                            bi = i;
                    for (int i = 0; i < n; i++)
                        if (i != bi && (second < 0 || sc[i].gain > sc[second].gain))
                            second = i;
                    assert_int_equal(bat_mkind(h), BAT_M_ATTACK);
                    for (int i = 0; i < n; i++)
                        if (bat_msuit(h) == sc[i].suit && bat_mtarget(h) == sc[i].target)
                            assert_true(sc[i].gain >= sc[bi].gain - 0.008);
                    if (second < 0 || sc[bi].gain > sc[second].gain + 0.01) {
                        gmove m = bat_softmax_attack(&v, 1e-4, &r);
                        assert_int_equal(bat_msuit(m), sc[bi].suit);
                        assert_int_equal(bat_mtarget(m), sc[bi].target);
                        assert_int_equal(bat_check(&st, m, err, sizeof err), 0);
                        checked++;
                    }
                    for (int k = 0; k < 40 * n; k++) {
                        gmove m = bat_softmax_attack(&v, 100, &r);
                        assert_int_equal(bat_check(&st, m, err, sizeof err), 0);
                        for (int i = 0; i < n; i++)
                            if (bat_msuit(m) == sc[i].suit && bat_mtarget(m) == sc[i].target)
                                hit[i]++;
                    }
                    for (int i = 0; i < n; i++)
                        assert_true(hit[i] > 0);
                    spread += n > 1;
                }
            }
            bat_play(&st, bat_heuristic_move(&st, &r));
        }
    }
    assert_true(checked > 50 && spread > 50);
}

/* prog_bias: a large bias makes the root's answer the heuristic's (draws and
 * bids, where the heuristic is deterministic); without it the search
 * differs from the heuristic somewhere. */
static void test_prog_bias(void **unused)
{
    struct rng r;
    struct bat_tree *t = bat_tree_new(1 << 14);
    struct bat_search_params on, off;
    int n = 0, differ = 0;
    (void)unused;
    rng_seed(&r, 44);
    bat_search_defaults(&on);
    on.prog_bias = 100;
    on.iterations = 300;
    off = on;
    off.prog_bias = 0;
    for (int g = 0; g < 10; g++) {
        struct bat_state st;
        bat_deal(&st, 3 + g % 4, 85, (uint64_t)g);
        while (st.phase <= BAT_BID) {
            struct bat_state v;
            struct bat_report rep;
            gmove h;
            bat_make_view(&st, st.act, &v);
            h = bat_heuristic_move(&v, &r);
            if (st.phase == BAT_DRAW || st.phase == BAT_BID) {
                assert_true(bat_search(t, &v, &on, &r, &rep) == h);
                differ += bat_search(t, &v, &off, &r, &rep) != h;
                n++;
            }
            bat_play(&st, h);
        }
    }
    assert_true(n > 100 && differ > 0);
    bat_tree_free(t);
}

/* root_sym: at a discard the root has one child per class of discards
 * (bat_discard_class), each class's first candidate; the classes tell apart
 * suit, count held, count known and a twin out of play. */
static void test_root_sym(void **unused)
{
    struct rng r;
    struct bat_tree *t = bat_tree_new(1 << 14);
    struct bat_search_params p;
    int roots = 0, merged = 0;
    (void)unused;
    rng_seed(&r, 45);
    bat_search_defaults(&p);
    p.root_sym = 1;
    p.iterations = 200;
    for (int g = 0; g < 10; g++) {
        struct bat_state st;
        bat_deal(&st, 3 + g % 4, 86, (uint64_t)g);
        while (st.phase <= BAT_DISCARD) {
            if (st.phase == BAT_DISCARD) {
                struct bat_state v;
                struct bat_report rep;
                gmove cand[BAT_MAX_CAND], moves[BAT_MAX_CAND], a;
                int32_t kids[BAT_MAX_CAND];
                int nc, n, classes = 0;
                bat_make_view(&st, st.act, &v);
                nc = bat_candidates(&v, BAT_ACTIONS_PRUNED, cand, BAT_MAX_CAND);
                for (int i = 0; i < nc; i++) {
                    gmove k = bat_discard_class(&v, cand[i]);
                    int ci = bat_mvalue(cand[i]), ck = bat_mvalue(k);
                    const uint8_t *h = v.hand[v.act];
                    assert_int_equal(bat_mkind(k), BAT_M_DISCARD);
                    assert_int_equal(bat_suit(ci), bat_suit(ck));
                    assert_int_equal(h[ci], h[ck]);
                    assert_int_equal(v.known[v.act][ci], v.known[v.act][ck]);
                    classes += k == cand[i];
                    merged += k != cand[i];
                }
                a = bat_search(t, &v, &p, &r, &rep);
                assert_true(bat_discard_class(&v, a) == a);
                n = bat_tree_children(t, 0, kids, moves, BAT_MAX_CAND);
                assert_int_equal(n, classes);
                for (int i = 0; i < n; i++)
                    assert_true(bat_discard_class(&v, moves[i]) == moves[i]);
                roots++;
            }
            bat_play(&st, bat_heuristic_move(&st, &r));
        }
    }
    assert_true(roots > 50 && merged > 50);
    bat_tree_free(t);
}

/* own_sym: below a draw at the root, the seat's own discards are keyed by
 * their classes (synthetic discards with target 1, each once); without it
 * they are the cards themselves. */
static void test_own_sym(void **unused)
{
    struct rng r;
    struct bat_tree *t = bat_tree_new(1 << 15);
    struct bat_search_params p;
    int seen[2] = {0, 0};
    (void)unused;
    rng_seed(&r, 46);
    for (int sym = 0; sym < 2; sym++) {
        bat_search_defaults(&p);
        p.own_sym = sym;
        p.iterations = 500;
        for (int g = 0; g < 6; g++) {
            struct bat_state st, v;
            struct bat_report rep;
            int32_t kids[BAT_MAX_CAND], kids2[BAT_MAX_CAND];
            gmove moves[BAT_MAX_CAND], moves2[BAT_MAX_CAND];
            int n;
            bat_deal(&st, 3 + g % 4, 87, (uint64_t)g);
            bat_make_view(&st, st.act, &v);
            bat_search(t, &v, &p, &r, &rep);
            n = bat_tree_children(t, 0, kids, moves, BAT_MAX_CAND);
            for (int i = 0; i < n; i++) {
                int n2 = bat_tree_children(t, kids[i], kids2, moves2, BAT_MAX_CAND);
                for (int j = 0; j < n2; j++) {
                    assert_int_equal(bat_mkind(moves2[j]), BAT_M_DISCARD);
                    assert_int_equal(bat_mtarget(moves2[j]), sym);
                    for (int k = 0; k < j; k++)
                        assert_true(moves2[k] != moves2[j]);
                    seen[sym]++;
                }
            }
        }
    }
    assert_true(seen[0] > 0 && seen[1] > 0 && seen[1] < seen[0]);
    bat_tree_free(t);
}

/* Singles of one suit whose twins are unseen are one class; a single whose
 * twin lies in the pile is another. */
static void test_discard_class(void **unused)
{
    struct bat_state st;
    gmove a, b, c;
    (void)unused;
    assert_int_equal(bat_parse_pos(&st, "view:1 phase=discard act=1 turn=0 attacks=0 last=- "
                                        "chips=10,10,10 bids=-,-,- hands=2h3h4h5h6h7h8h9hThJhQh/+10/+10 "
                                        "known=-/-/- battle=- pile=4h deck=72",
                                   err, sizeof err),
                     0);
    a = bat_move(BAT_M_DISCARD, 0, 0, 2 * 13 + 1); /* 2h */
    b = bat_move(BAT_M_DISCARD, 0, 0, 2 * 13 + 2); /* 3h: one class with 2h */
    c = bat_move(BAT_M_DISCARD, 0, 0, 2 * 13 + 3); /* 4h: its twin in the pile */
    assert_true(bat_discard_class(&st, a) == a);
    assert_true(bat_discard_class(&st, b) == a);
    assert_true(bat_discard_class(&st, c) == c);
}

static void test_players_legal(void **unused)
{
    struct rng r;
    struct bat_tree *t = bat_tree_new(1 << 14);
    struct bat_search_params p;
    (void)unused;
    rng_seed(&r, 32);
    bat_search_defaults(&p);
    p.iterations = 60;
    for (int g = 0; g < 6; g++) {
        struct bat_state st;
        bat_deal(&st, 3 + g % 4, 78, (uint64_t)g);
        for (int ply = 0; !bat_over(&st); ply++) {
            struct bat_state v;
            struct bat_report rep;
            gmove h, x, s;
            bat_make_view(&st, st.act, &v);
            h = bat_heuristic_move(&v, &r);
            x = bat_random_move(&v, &r);
            assert_int_equal(bat_check(&st, h, err, sizeof err), 0);
            assert_int_equal(bat_check(&st, x, err, sizeof err), 0);
            if (ply % 3 == 0) {
                s = bat_search(t, &v, &p, &r, &rep);
                assert_int_equal(bat_check(&st, s, err, sizeof err), 0);
                assert_int_equal(rep.nseats, st.nseats);
                for (int k = 0; k < rep.nseats && rep.best_visits; k++)
                    assert_true(rep.values[k] >= 0 && rep.values[k] <= 1);
            }
            /* candidates are legal */
            {
                gmove c[BAT_MAX_CAND];
                int n = bat_candidates(&v, BAT_ACTIONS_PRUNED, c, BAT_MAX_CAND);
                assert_true(n > 0);
                for (int i = 0; i < n; i++)
                    assert_int_equal(bat_check(&st, c[i], err, sizeof err), 0);
            }
            bat_play(&st, ply % 2 ? h : x);
        }
    }
    bat_tree_free(t);
}

/* A card move up to rank symmetry: kind, target, suit, and the counts of
 * pairs played whole, pairs split and singles (relative to the hand). */
static uint64_t canon(const struct bat_state *st, gmove m)
{
    uint8_t set[BAT_NCARD];
    int k = bat_mkind(m), whole = 0, split = 0, single = 0;
    const uint8_t *hand = st->hand[st->act];
    if (k != BAT_M_ATTACK && k != BAT_M_DEFEND)
        return (uint64_t)m;
    bat_move_set(m, set);
    for (int c = 0; c < BAT_NCARD; c++) {
        if (set[c] == 2)
            whole++;
        else if (set[c] == 1 && hand[c] == 2)
            split++;
        else if (set[c] == 1)
            single++;
    }
    return (uint64_t)k | (uint64_t)bat_mtarget(m) << 4 | (uint64_t)bat_msuit(m) << 8 |
           (uint64_t)whole << 16 | (uint64_t)split << 24 | (uint64_t)single << 32;
}

static int has(const uint64_t *a, int n, uint64_t x)
{
    for (int i = 0; i < n; i++)
        if (a[i] == x)
            return 1;
    return 0;
}

/* The full action set is every legal attack and defence up to rank
 * symmetry, each class once; the pruned set is a subset of it. */
static void test_full_actions(void **unused)
{
    static gmove all[BAT_MAX_MOVES], full[BAT_MAX_CAND], pruned[BAT_MAX_CAND];
    static uint64_t ca[BAT_MAX_MOVES], cf[BAT_MAX_CAND];
    struct rng r;
    int checked = 0;
    (void)unused;
    rng_seed(&r, 33);
    for (int g = 0; g < 40; g++) {
        struct bat_state st;
        bat_deal(&st, 3 + g % 4, 79, (uint64_t)g);
        while (!bat_over(&st)) {
            if (st.phase == BAT_ATTACK || st.phase == BAT_DEFEND) {
                struct bat_state v;
                int na = bat_gen(&st, all, BAT_MAX_MOVES), nf, np, nca = 0;
                bat_make_view(&st, st.act, &v);
                nf = bat_candidates(&v, BAT_ACTIONS_FULL, full, BAT_MAX_CAND);
                np = bat_candidates(&v, BAT_ACTIONS_PRUNED, pruned, BAT_MAX_CAND);
                assert_true(na > 0 && nf > 0 && nf < BAT_MAX_CAND);
                for (int i = 0; i < nf; i++) {
                    assert_int_equal(bat_check(&st, full[i], err, sizeof err), 0);
                    cf[i] = canon(&st, full[i]);
                    assert_false(has(cf, i, cf[i])); /* each class once */
                }
                for (int i = 0; i < na; i++) {
                    uint64_t c = canon(&st, all[i]);
                    if (!has(ca, nca, c))
                        ca[nca++] = c;
                }
                assert_int_equal(nca, nf);
                for (int i = 0; i < nca; i++)
                    assert_true(has(cf, nf, ca[i]));
                for (int i = 0; i < np; i++)
                    assert_true(has(cf, nf, canon(&st, pruned[i])));
                checked++;
            }
            bat_play(&st, bat_heuristic_move(&st, &r));
        }
    }
    assert_true(checked > 300);
}

/* The tree's move keys (the `abstract` parameter): two legal attacks or
 * defences share a key exactly when they are the same up to rank symmetry
 * (canon), every other move is its own key, and a search keyed so answers
 * a legal move of the position, not a key. */
static void test_move_key(void **unused)
{
    static gmove all[BAT_MAX_MOVES];
    static uint64_t ca[BAT_MAX_MOVES];
    static gmove ka[BAT_MAX_MOVES];
    struct rng r;
    struct bat_tree *t = bat_tree_new(1 << 14);
    struct bat_search_params p;
    int checked = 0, merged = 0, searched = 0;
    (void)unused;
    rng_seed(&r, 34);
    bat_search_defaults(&p);
    p.abstract = 1;
    p.crn = 1;
    p.iterations = 200;
    for (int g = 0; g < 20; g++) {
        struct bat_state st;
        bat_deal(&st, 3 + g % 4, 80, (uint64_t)g);
        for (int ply = 0; !bat_over(&st); ply++) {
            int na = bat_gen(&st, all, BAT_MAX_MOVES);
            assert_true(na > 0);
            for (int i = 0; i < na; i++) {
                int k = bat_mkind(all[i]);
                ca[i] = canon(&st, all[i]);
                ka[i] = bat_move_key(&st, all[i]);
                if (k != BAT_M_ATTACK && k != BAT_M_DEFEND)
                    assert_true(ka[i] == all[i]);
                else
                    assert_int_equal(bat_mkind(ka[i]), k);
            }
            for (int i = 0; i < na; i++)
                for (int j = i + 1; j < na && j < i + 40; j++) {
                    assert_int_equal(ca[i] == ca[j], ka[i] == ka[j]);
                    merged += ka[i] == ka[j];
                }
            checked += na;
            if ((st.phase == BAT_ATTACK || st.phase == BAT_DEFEND) && ply % 2 == 0) {
                struct bat_state v;
                struct bat_report rep;
                gmove m;
                bat_make_view(&st, st.act, &v);
                m = bat_search(t, &v, &p, &r, &rep);
                assert_int_equal(bat_check(&st, m, err, sizeof err), 0);
                for (int i = 0; i < rep.nlines; i++)
                    assert_int_equal(bat_check(&st, rep.lines[i].move, err, sizeof err), 0);
                searched++;
            }
            bat_play(&st, bat_heuristic_move(&st, &r));
        }
    }
    assert_true(checked > 10000 && merged > 1000 && searched > 50);
    bat_tree_free(t);
}

/* Common random numbers (`crn`): the k-th visit of a root
 * action is dealt from the view by (base, k) alone, so every root action
 * meets the same hidden hands and draw pile at its k-th visit; the deal
 * agrees with the view, and another k is another deal. */
static void test_crn_deal(void **unused)
{
    struct rng r;
    struct bat_search_params p;
    int same = 0, differ = 0;
    (void)unused;
    bat_search_defaults(&p);
    p.crn = 1;
    rng_seed(&r, 35);
    for (int g = 0; g < 12; g++) {
        struct bat_state st;
        bat_deal(&st, 3 + g % 4, 81, (uint64_t)g);
        for (int ply = 0; !bat_over(&st); ply++) {
            if (ply % 4 == 0) {
                struct bat_state v, d1, d2, d3, back;
                struct rng a, b;
                uint64_t base = rng_next(&r), k = rng_below(&r, 1000);
                bat_make_view(&st, st.act, &v);
                rng_seed(&a, 1);
                rng_seed(&b, 2);
                bat_crn_determinize(&v, &p, base, k, &a, &d1);
                bat_crn_determinize(&v, &p, base, k, &b, &d2);
                assert_memory_equal(&d1, &d2, sizeof d1);
                assert_memory_equal(&a, &b, sizeof a); /* the rest of the iteration too */
                check_full(&d1);
                bat_make_view(&d1, st.act, &back);
                assert_memory_equal(&back, &v, sizeof v);
                bat_crn_determinize(&v, &p, base, k + 1, &a, &d3);
                differ += memcmp(&d1, &d3, sizeof d1) != 0;
                same++;
            }
            bat_play(&st, bat_heuristic_move(&st, &r));
        }
    }
    assert_true(same > 50 && differ == same);
}

/* bat_search_set: every parameter by name, bad values refused and the
 * parameter kept. */
static void test_search_set(void **unused)
{
    struct bat_search_params p;
    (void)unused;
    bat_search_defaults(&p);
    assert_int_equal(bat_search_set(&p, "explore", "1.5"), 0);
    assert_true(p.explore == 1.5);
    assert_int_equal(bat_search_set(&p, "explore", "101"), -1);
    assert_int_equal(bat_search_set(&p, "explore", "x"), -1);
    assert_true(p.explore == 1.5);
    assert_int_equal(bat_search_set(&p, "epsilon_opp", "-0.5"), 0);
    assert_true(p.epsilon_opp == -0.5);
    assert_int_equal(bat_search_set(&p, "oracle", "1"), 0);
    assert_int_equal(p.oracle, 1);
    assert_int_equal(bat_search_set(&p, "oracle", "2"), -1);
    assert_int_equal(bat_search_set(&p, "abstract", "1"), 0);
    assert_int_equal(p.abstract, 1);
    assert_int_equal(bat_search_set(&p, "abstract", "2"), -1);
    assert_int_equal(bat_search_set(&p, "crn", "1"), 0);
    assert_int_equal(p.crn, 1);
    assert_int_equal(bat_search_set(&p, "bid_heuristic", "1"), 0);
    assert_int_equal(p.bid_heuristic, 1);
    assert_int_equal(bat_search_set(&p, "opp_model_bid", "1"), 0);
    assert_int_equal(p.opp_model_bid, 1);
    assert_int_equal(bat_search_set(&p, "opp_model_collect", "1"), 0);
    assert_int_equal(p.opp_model_collect, 1);
    assert_int_equal(bat_search_set(&p, "rollout_temp", "0.5"), 0);
    assert_true(p.rollout_temp == 0.5);
    assert_int_equal(bat_search_set(&p, "prog_bias", "0.2"), 0);
    assert_true(p.prog_bias == 0.2);
    assert_int_equal(bat_search_set(&p, "prog_bias", "-1"), -1);
    assert_int_equal(bat_search_set(&p, "attack_heuristic", "1"), 0);
    assert_int_equal(bat_search_set(&p, "defend_heuristic", "1"), 0);
    assert_true(p.attack_heuristic && p.defend_heuristic);
    assert_int_equal(bat_search_set(&p, "own_sym", "1"), 0);
    assert_int_equal(p.own_sym, 1);
    assert_int_equal(bat_search_set(&p, "root_sym", "1"), 0);
    assert_int_equal(p.root_sym, 1);
    assert_int_equal(bat_search_set(&p, "expand_heuristic", "1"), 0);
    assert_int_equal(p.expand_heuristic, 1);
    assert_int_equal(bat_search_set(&p, "abstract_discard", "1"), 0);
    assert_int_equal(p.abstract_discard, 1);
    assert_int_equal(bat_search_set(&p, "infer_collect", "1"), 0);
    assert_int_equal(p.infer_collect, 1);
    assert_int_equal(bat_search_set(&p, "eval_scale", "0.001"), -1);
    assert_int_equal(bat_search_set(&p, "cutoff", "7"), 0);
    assert_int_equal(p.cutoff, 7);
    assert_int_equal(bat_search_set(&p, "cutoff", "7.5"), -1);
    assert_int_equal(bat_search_set(&p, "actions", "full"), 0);
    assert_int_equal(p.actions, BAT_ACTIONS_FULL);
    assert_int_equal(bat_search_set(&p, "nosuch", "1"), -1);
    assert_int_equal(bat_search_set(&p, "leaf5_next", "0.5"), 0);
    assert_true(p.leaf_w[5][3] == 0.5 && p.leaf_w[4][3] != 0.5);
    assert_int_equal(bat_search_set(&p, "leaf7_next", "0.5"), -1);
    assert_int_equal(bat_search_set(&p, "leaf4_nosuch", "0.5"), -1);
    assert_int_equal(bat_search_set(&p, "leaf4_best", "11"), -1);
}

/* The learned leaf: the features of a hand-made position, and the playout's
 * reward made from them (leaf=1) instead of from the best suit alone. */
static void test_leaf(void **unused)
{
    struct bat_state st;
    struct bat_search_params p;
    struct rng r;
    double f[BAT_LEAF_NF], reward[BAT_MAX_SEATS], w[BAT_LEAF_NF], v[3];
    (void)unused;
    bat_deal(&st, 3, 5, 0);
    memset(st.hand, 0, sizeof st.hand);
    /* seat 1: Ac Ac 2c (5 points), 3d 4d, 5h, 6s 7s: suits 5 2 1 2 */
    st.hand[0][0] = 2;
    st.hand[0][1] = 1;
    st.hand[0][13 + 2] = st.hand[0][13 + 3] = 1;
    st.hand[0][26 + 4] = 1;
    st.hand[0][39 + 5] = st.hand[0][39 + 6] = 1;
    /* seat 2: 8h 9h Th (3 points), 8s; seat 3: Kd */
    st.hand[1][26 + 7] = st.hand[1][26 + 8] = st.hand[1][26 + 9] = 1;
    st.hand[1][39 + 7] = 1;
    st.hand[2][13 + 12] = 1;
    st.phase = BAT_ATTACK;
    st.act = 0;
    st.last_suit = 0; /* clubs barred: seat 1's best allowed suit has 2 points */
    st.attacks = 3;
    st.chips[0] = 14;
    st.chips[1] = 8;
    st.chips[2] = 8;
    assert_false(bat_over(&st));
    bat_leaf_features(&st, 0, f);
    {
        const double want[BAT_LEAF_NF] = {5, 2, 3, 1, 2, 0, 0, 4};
        for (int i = 0; i < BAT_LEAF_NF; i++)
            assert_true(f[i] == want[i]);
    }
    bat_leaf_features(&st, 1, f);
    {
        const double want[BAT_LEAF_NF] = {3, 1, 0, 0, 0, 1, 3, -2};
        for (int i = 0; i < BAT_LEAF_NF; i++)
            assert_true(f[i] == want[i]);
    }
    bat_leaf_features(&st, 2, f);
    assert_true(f[0] == 1 && f[3] == 0 && f[5] == 0 && f[7] == -2);
    /* the reward at a cut playout: chips + weights . features */
    bat_search_defaults(&p);
    assert_int_equal(bat_search_set(&p, "leaf", "1"), 0);
    for (int i = 0; i < BAT_LEAF_NF; i++) {
        char name[32];
        w[i] = 0.1 * (i + 1) - 0.35;
        snprintf(name, sizeof name, "leaf3_%s", bat_leaf_names[i]);
        {
            char val[32];
            snprintf(val, sizeof val, "%.2f", w[i]);
            assert_int_equal(bat_search_set(&p, name, val), 0);
        }
    }
    for (int s = 0; s < 3; s++) {
        bat_leaf_features(&st, s, f);
        v[s] = st.chips[s];
        for (int i = 0; i < BAT_LEAF_NF; i++)
            v[s] += w[i] * f[i];
    }
    rng_seed(&r, 1);
    {
        struct bat_state c = st;
        bat_playout(&c, st.attacks, &p, 0, &r, reward); /* cut at once */
        assert_int_equal(c.attacks, st.attacks);
    }
    for (int s = 0; s < 3; s++) {
        double others = (v[0] + v[1] + v[2] - v[s]) / 2;
        assert_true(fabs(reward[s] - 1.0 / (1.0 + exp(-(v[s] - others) / p.eval_scale))) < 1e-9);
    }
    /* leaf_self: the searching seat (here seat 2) valued by self3_*, the
     * others by leaf3_* */
    assert_int_equal(bat_search_set(&p, "leaf_self", "1"), 0);
    assert_int_equal(bat_search_set(&p, "self3_best", "2.5"), 0);
    assert_int_equal(bat_search_set(&p, "self7_best", "2.5"), -1);
    assert_int_equal(bat_search_set(&p, "self3_nosuch", "1"), -1);
    for (int i = 1; i < BAT_LEAF_NF; i++)
        p.self_w[3][i] = 0;
    bat_leaf_features(&st, 1, f);
    v[1] = st.chips[1] + 2.5 * f[0];
    {
        struct bat_state c = st;
        bat_playout(&c, st.attacks, &p, 1, &r, reward);
    }
    for (int s = 0; s < 3; s++) {
        double others = (v[0] + v[1] + v[2] - v[s]) / 2;
        assert_true(fabs(reward[s] - 1.0 / (1.0 + exp(-(v[s] - others) / p.eval_scale))) < 1e-9);
    }
}

/* ---- Threads: root-parallel search (bat_search_par) ---- */
#define PAR_T 4

static void par_trees(struct bat_tree **t, int n)
{
    for (int i = 0; i < n; i++)
        t[i] = bat_tree_new(1 << 13);
}

static void par_free(struct bat_tree **t, int n)
{
    for (int i = 0; i < n; i++)
        bat_tree_free(t[i]);
}

static void par_seed(struct rng *r, int n, uint64_t seed)
{
    for (int i = 0; i < n; i++)
        rng_seed(&r[i], mix64(seed, (uint64_t)i));
}

static int searchable(const struct bat_state *v, const struct bat_search_params *p)
{
    gmove c[BAT_MAX_CAND];
    return bat_candidates(v, p->actions, c, BAT_MAX_CAND) > 1 && !bat_unsearched(p, v);
}

/* Four threads answer legal actions in every phase and spend the whole
 * budget between them (1001 iterations: not a multiple of 4). */
static void test_parallel_legal(void **unused)
{
    struct bat_tree *t[PAR_T];
    struct rng r[PAR_T], rr;
    struct bat_search_params p;
    int searched = 0;
    (void)unused;
    par_trees(t, PAR_T);
    par_seed(r, PAR_T, 7);
    rng_seed(&rr, 8);
    bat_search_defaults(&p);
    p.iterations = 1001;
    for (int g = 0; g < 3; g++) {
        struct bat_state st;
        bat_deal(&st, 3 + g, 78, (uint64_t)g);
        for (int ply = 0; !bat_over(&st); ply++) {
            struct bat_state v;
            struct bat_report rep;
            bat_make_view(&st, st.act, &v);
            if (ply % 7 == 0) {
                gmove m = bat_search_par(t, PAR_T, &v, &p, r, &rep);
                assert_int_equal(bat_check(&st, m, err, sizeof err), 0);
                if (searchable(&v, &p)) {
                    uint64_t sum = 0;
                    assert_int_equal(rep.iterations, 1001);
                    assert_true(rep.best_visits > 0 && rep.best_visits <= 1001);
                    assert_true(rep.nodes > 0);
                    for (int i = 0; i < rep.nlines; i++)
                        sum += rep.lines[i].visits;
                    assert_true(sum <= 1001);
                    for (int k = 0; k < rep.nseats; k++)
                        assert_true(rep.values[k] >= 0 && rep.values[k] <= 1);
                    searched++;
                }
            }
            bat_play(&st, bat_heuristic_move(&v, &rr));
        }
    }
    assert_true(searched > 10);
    par_free(t, PAR_T);
}

/* With a budget the parallel search is deterministic (each thread's own
 * random stream, the sums independent of timing); one thread is exactly
 * bat_search; the hidden cards are never used: searching the full state
 * and the seat's view give the same answer, as do two full states that
 * differ only in what the seat cannot see. */
static void test_parallel_deterministic(void **unused)
{
    struct bat_tree *t[PAR_T];
    struct rng r1[PAR_T], r2[PAR_T];
    struct bat_search_params p;
    struct bat_state st, st2, v;
    struct bat_report a, b;
    gmove m1, m2;
    int checked = 0;
    (void)unused;
    par_trees(t, PAR_T);
    bat_search_defaults(&p);
    p.iterations = 800;
    for (uint64_t g = 0; g < 12 && checked < 4; g++) {
        bat_deal(&st, 4, 78, g);
        bat_make_view(&st, st.act, &v);
        if (!searchable(&v, &p))
            continue;
        checked++;
        for (int n = 1; n <= PAR_T; n += 1) {
            par_seed(r1, n, g);
            par_seed(r2, n, g);
            m1 = bat_search_par(t, n, &v, &p, r1, &a);
            m2 = bat_search_par(t, n, &st, &p, r2, &b); /* the full state */
            assert_int_equal(m1, m2);
            assert_int_equal(a.iterations, b.iterations);
            assert_int_equal(a.nodes, b.nodes);
            assert_int_equal(a.nlines, b.nlines);
            for (int i = 0; i < a.nlines; i++) {
                assert_int_equal(a.lines[i].move, b.lines[i].move);
                assert_int_equal(a.lines[i].visits, b.lines[i].visits);
            }
        }
        /* another deal of the cards the seat cannot see */
        {
            struct rng rd;
            rng_seed(&rd, g + 100);
            bat_determinize(&v, NULL, &rd, &st2);
            par_seed(r1, 3, g);
            par_seed(r2, 3, g);
            m1 = bat_search_par(t, 3, &st, &p, r1, &a);
            m2 = bat_search_par(t, 3, &st2, &p, r2, &b);
            assert_int_equal(m1, m2);
            assert_int_equal(a.best_visits, b.best_visits);
        }
        /* one thread: bat_search itself */
        {
            struct rng x, y;
            rng_seed(&x, g);
            rng_seed(&y, g);
            m1 = bat_search_par(t, 1, &v, &p, &x, &a);
            m2 = bat_search(t[0], &v, &p, &y, &b);
            assert_int_equal(m1, m2);
            assert_int_equal(a.best_visits, b.best_visits);
            assert_int_equal(a.nodes, b.nodes);
        }
    }
    assert_int_equal(checked, 4);
    par_free(t, PAR_T);
}

/* An unbounded 4-thread search ends at the caller's stop (polled on the
 * calling thread only), all threads with it, with a legal answer and the
 * running report showing every thread's iterations. */
struct stop_count {
    int polls, after;
    int reports;
    uint64_t reported;
};

static int stop_after(void *ctx)
{
    struct stop_count *s = ctx;
    return ++s->polls > s->after;
}

static void count_report(void *ctx, const struct bat_report *rep)
{
    struct stop_count *s = ctx;
    s->reports++;
    s->reported = rep->iterations;
}

static void test_parallel_stop(void **unused)
{
    struct bat_tree *t[PAR_T];
    struct rng r[PAR_T];
    struct bat_search_params p;
    struct bat_state st, v;
    struct bat_report rep;
    struct stop_count sc = {0, 40, 0, 0};
    gmove m;
    uint64_t g;
    (void)unused;
    par_trees(t, PAR_T);
    par_seed(r, PAR_T, 3);
    bat_search_defaults(&p);
    p.iterations = 0; /* until stop */
    p.stop = stop_after;
    p.stop_ctx = &sc;
    p.report = count_report;
    p.report_ctx = &sc;
    p.report_us = 0; /* every poll */
    for (g = 0;; g++) {
        bat_deal(&st, 4, 78, g);
        bat_make_view(&st, st.act, &v);
        if (searchable(&v, &p))
            break;
    }
    m = bat_search_par(t, PAR_T, &v, &p, r, &rep);
    assert_int_equal(bat_check(&st, m, err, sizeof err), 0);
    assert_true(sc.polls > sc.after);
    assert_true(rep.iterations >= 16 * (uint64_t)sc.after);
    assert_true(sc.reports > 0 && sc.reported > 0);
    par_free(t, PAR_T);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_determinize_consistent),
        cmocka_unit_test(test_record_fits_heuristic),
        cmocka_unit_test(test_determinize_model),
        cmocka_unit_test(test_determinize_collection),
        cmocka_unit_test(test_search_set),
        cmocka_unit_test(test_leaf),
        cmocka_unit_test(test_collect_heuristic),
        cmocka_unit_test(test_bid_heuristic),
        cmocka_unit_test(test_opp_model_bid),
        cmocka_unit_test(test_softmax_attack),
        cmocka_unit_test(test_prog_bias),
        cmocka_unit_test(test_root_sym),
        cmocka_unit_test(test_discard_class),
        cmocka_unit_test(test_own_sym),
        cmocka_unit_test(test_players_legal),
        cmocka_unit_test(test_full_actions),
        cmocka_unit_test(test_move_key),
        cmocka_unit_test(test_crn_deal),
        cmocka_unit_test(test_parallel_legal),
        cmocka_unit_test(test_parallel_deterministic),
        cmocka_unit_test(test_parallel_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
