/* rules_w1h.c - rules_core.h for boards of 1 word (N <= 5), compiled for
 * x86-64 processors with POPCNT, BMI1 and BMI2 (population counts, bit
 * scans and the k-th set bit in one instruction each).  rules.c picks this
 * or rules_w1.c at run time (pal_fast_cpu); both make the same decisions.
 * On other processors' builds this file holds nothing. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* the headers first, compiled as everywhere else */
#include <assert.h>
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../../core/util.h"
#include "palagan.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,bmi,bmi2"))), apply_to = function)
#else
#pragma GCC target("popcnt,bmi,bmi2")
#endif
#define PAL_HW 1
#define W 1
#define SFX(name) name##_1h
#include "rules_core.h"
#if defined(__clang__)
#pragma clang attribute pop
#endif
#else
typedef int pal_rules_w1h_empty; /* ISO C wants a declaration */
#endif
