#ifndef REPEAT_CLIBXML2_SHIM_H
#define REPEAT_CLIBXML2_SHIM_H

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlreader.h>

#endif
