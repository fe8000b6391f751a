/* rules_w1.c - rules_core.h for boards of 1 bitboard word(s). */
#define W 1
#define SFX(name) name##_1
#include "rules_core.h"
