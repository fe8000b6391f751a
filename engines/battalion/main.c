/* main.c - medan-battalion: the Battalion engine (3-6 players, hidden hands). */
#include "../../protocol/mep.h"
#include "battalion_api.h"

int main(int argc, char **argv) { return mep_main(&battalion_engine, argc, argv); }
