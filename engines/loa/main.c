/* main.c - medan-loa: the Lines of Action engine. */
#include "../../protocol/mep.h"
#include "loa_api.h"

int main(int argc, char **argv) { return mep_main(&loa_engine, argc, argv); }
