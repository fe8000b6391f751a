/* main.c - medan-palagan: the Palagan engine. */
#include "../../protocol/mep.h"
#include "palagan_api.h"

int main(int argc, char **argv) { return mep_main(&palagan_engine, argc, argv); }
