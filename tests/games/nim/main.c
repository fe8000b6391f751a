/* main.c - medan-nim: the toy fifth game's engine (built for the tests, not
 * installed). */
#include "../../../protocol/mep.h"
#include "nim_api.h"

int main(int argc, char **argv) { return mep_main(&nim_engine, argc, argv); }
