#ifndef REPEAT_CLIBXML2_SHIM_H
#define REPEAT_CLIBXML2_SHIM_H

// Debian's libxml2 is built with ICU, so its encoding.h includes the
// system's <unicode/ucnv.h>; Foundation carries its own ICU module, and a
// Swift module that imports both sees two definitions of UErrorCode (a
// build error that comes and goes with the module cache). Repeat uses no
// ICU converter, so the headers are read as if libxml2 had none: only the
// trailing ICU fields of xmlCharEncodingHandler, which Repeat never touches,
// drop out of view.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlreader.h>

#endif
