/* rules_w2.c - rules_core.h for boards of 2 bitboard word(s). */
#define W 2
#define SFX(name) name##_2
#include "rules_core.h"
