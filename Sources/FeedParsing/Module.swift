// The FeedParsing module: see DESIGN.md's module table and this folder's files.
