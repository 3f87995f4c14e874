import FeedParsing

/// Decodes one feed file (or stdin) chunk by chunk, handing each batch to
/// the caller as soon as the chunk that completed it was read.
public enum FeedFileDecoding {
    /// Reads `path` (`-` for stdin) through a decoder for `format` (`nil`:
    /// detect), calling `onBatch` after every chunk and once at the end;
    /// the batch is emptied after each call. Returns the decoder, for its
    /// format and statistics. `onBatch` returning `false` stops reading.
    /// `onRead` learns how many bytes were read so far, before each chunk
    /// is decoded. `spool` copies a pipe as it is read, or reads a copy
    /// made before (see ``FileByteReader/init(path:chunkSize:spool:)``).
    @discardableResult
    public static func decode(
        path: String, format: FeedFormat?, options: FeedDecodingOptions,
        chunkSize: Int = FileByteReader.defaultChunkSize, spool: FeedSpool? = nil,
        onRead: (Int) -> Void = { _ in },
        onBatch: (inout FeedBatch) throws -> Bool
    ) throws -> any FeedDecoder {
        try decode(path: path, format: format, options: options, chunkSize: chunkSize, spool: spool, onRead: onRead) {
            batch, _ in
            try onBatch(&batch)
        }
    }

    /// ``decode(path:format:options:chunkSize:spool:onRead:onBatch:)`` that also
    /// hands `onBatch` the decoder, for its format and statistics so far.
    @discardableResult
    public static func decode(
        path: String, format: FeedFormat?, options: FeedDecodingOptions,
        chunkSize: Int = FileByteReader.defaultChunkSize, spool: FeedSpool? = nil,
        onRead: (Int) -> Void = { _ in },
        onBatch: (inout FeedBatch, any FeedDecoder) throws -> Bool
    ) throws -> any FeedDecoder {
        let reader = try FileByteReader(path: path, chunkSize: chunkSize, spool: spool)
        let decoder = makeFeedDecoder(format: format, options: options)
        var batch = FeedBatch()
        var stopped = false
        var bytesRead = 0
        try reader.forEachChunk { chunk in
            guard !stopped else { return }
            bytesRead += chunk.count
            onRead(bytesRead)
            decoder.decode(chunk, into: &batch)
            if !batch.isEmpty {
                stopped = try !onBatch(&batch, decoder)
                batch.removeAll()
            }
        }
        guard !stopped else { return decoder }
        decoder.finish(into: &batch)
        _ = try onBatch(&batch, decoder)
        batch.removeAll()
        return decoder
    }
}
