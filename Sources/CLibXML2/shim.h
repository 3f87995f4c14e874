#ifndef REPEAT_CLIBXML2_SHIM_H
#define REPEAT_CLIBXML2_SHIM_H

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlreader.h>

/// Frees memory that libxml2 allocated; `xmlFree` itself is a global
/// function-pointer variable that Swift 6 rejects as shared mutable state.
static inline void repeat_xml_free(void *pointer) { xmlFree(pointer); }

#endif
