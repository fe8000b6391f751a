/* rules_w4.c - rules_core.h for boards of 4 bitboard word(s). */
#define W 4
#define SFX(name) name##_4
#include "rules_core.h"
