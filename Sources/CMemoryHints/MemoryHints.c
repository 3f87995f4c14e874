// MemoryHints.h is all inline; this file gives the target a source of its own.
#include "MemoryHints.h"
