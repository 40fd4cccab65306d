import CJPEGCodec
import CPNG

/// Why image data could not be decoded or encoded.
public enum CGImageCodecError: Error, Equatable, CustomStringConvertible {
    /// Neither PNG nor JPEG (the first bytes are no signature of either).
    case unknownFormat
    /// The library found the data corrupt or cut short; its message.
    case invalidData(String)
    /// The picture's size is zero or beyond what may be allocated
    /// (`CGBitmapMaximumDimension`, `CGBitmapMaximumByteCount`).
    case unsupportedSize(width: Int, height: Int)
    /// The encoder failed; its message.
    case encodingFailed(String)

    public var description: String {
        switch self {
        case .unknownFormat: "not a PNG or JPEG image"
        case let .invalidData(message): "invalid image data: \(message)"
        case let .unsupportedSize(width, height): "unsupported image size \(width)×\(height)"
        case let .encodingFailed(message): "image encoding failed: \(message)"
        }
    }
}

extension CGImage {
    /// The image in PNG or JPEG data, told apart by their signatures.
    /// Throws a `CGImageCodecError` for anything else, for corrupt or
    /// truncated data, and for sizes that may not be allocated, before
    /// allocating them.
    public static func decode(_ data: Data) throws -> CGImage {
        if data.starts(with: pngSignature) { return try decodePNG(data) }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return try decodeJPEG(data) }
        throw CGImageCodecError.unknownFormat
    }

    /// The width and height in pixels that PNG or JPEG data claims (its
    /// `IHDR`, its frame header), read without decoding any pixel: what a
    /// caller with a memory budget checks before ``decode(_:)``.
    public static func pixelSize(ofEncoded data: Data) throws -> (width: Int, height: Int) {
        if data.starts(with: pngSignature) {
            // The signature, then the IHDR chunk: length, "IHDR", width, height (big-endian).
            guard data.count >= 24, Array(data[data.startIndex + 12 ..< data.startIndex + 16]) == Array("IHDR".utf8) else {
                throw CGImageCodecError.invalidData("the PNG does not start with its IHDR chunk")
            }
            func bigEndian(_ at: Int) -> Int {
                data[data.startIndex + at ..< data.startIndex + at + 4].reduce(0) { $0 << 8 | Int($1) }
            }
            return (bigEndian(16), bigEndian(20))
        }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            return try data.withUnsafeBytes { raw in
                var info = jpeg_codec_info()
                guard jpeg_codec_read_header(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &info) == 0 else {
                    throw CGImageCodecError.invalidData(text(of: &info))
                }
                return (Int(info.width), Int(info.height))
            }
        }
        throw CGImageCodecError.unknownFormat
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// How many bytes of compressed pixels (`IDAT`) a PNG holds, once its
    /// chunks are known to be whole and to end with `IEND`: a file cut
    /// short is refused before its pixels are allocated, not after
    /// allocating them and decoding what is there.
    static func pngImageDataLength(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        var offset = pngSignature.count
        var imageData = 0
        while bytes.count - offset >= 12 {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard length <= bytes.count - offset - 12 else {
                throw CGImageCodecError.invalidData("the PNG is cut short: its \(type) chunk at byte \(offset) needs \(length) bytes and \(bytes.count - offset - 12) are left")
            }
            if type == "IEND" { return imageData }
            if type == "IDAT" { imageData += length }
            offset += 12 + length
        }
        throw CGImageCodecError.invalidData("the PNG is cut short: it ends at byte \(bytes.count) without its IEND chunk")
    }

    /// The image as PNG data: 8-bit RGBA, colour unpremultiplied.
    public func pngData() throws -> Data {
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        let source = pixels
        for y in 0..<height {
            for x in 0..<width {
                let p = source.pixel(x: x, y: y), i = (y * width + x) * 4
                (straight[i], straight[i + 1], straight[i + 2], straight[i + 3]) =
                    (unpremultiply(p.red, p.alpha), unpremultiply(p.green, p.alpha), unpremultiply(p.blue, p.alpha), p.alpha)
            }
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)   // PNG_FORMAT_RGBA, a macro Swift cannot import
        var size = 0
        guard png_image_write_to_memory(&image, nil, &size, 0, straight, Int32(width * 4), nil) != 0, size > 0 else {
            throw CGImageCodecError.encodingFailed(message(of: &image))
        }
        var output = Data(count: size)
        let written = output.withUnsafeMutableBytes { buffer in
            png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, straight, Int32(width * 4), nil)
        }
        guard written != 0 else { throw CGImageCodecError.encodingFailed(message(of: &image)) }
        return output.prefix(size)
    }

    /// The image as baseline JPEG data at `compressionQuality` (0…1). JPEG
    /// has no alpha: transparent parts come out as if over black.
    public func jpegData(compressionQuality: CGFloat) throws -> Data {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let source = pixels
        for y in 0..<height {
            for x in 0..<width {
                let p = source.pixel(x: x, y: y), i = (y * width + x) * 3
                (rgb[i], rgb[i + 1], rgb[i + 2]) = (p.red, p.green, p.blue)
            }
        }
        let quality = compressionQuality.isNaN ? 75 : Int32((min(max(compressionQuality, 0), 1) * 100).rounded())
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 200)
        guard jpeg_codec_encode(rgb, Int32(width), Int32(height), quality, &output, &size, &message) == 0, let output else {
            throw CGImageCodecError.encodingFailed(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { jpeg_codec_free(output) }
        return Data(bytes: output, count: Int(size))
    }

    /// Deflate's largest ratio is about 1,032 to 1; twice that, for margin.
    static let pngMaximumCompression = 2048

    private static func decodePNG(_ data: Data) throws -> CGImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        return try data.withUnsafeBytes { bytes in
            guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
                throw CGImageCodecError.invalidData(message(of: &image))
            }
            let width = Int(image.width), height = Int(image.height)
            guard isAllocatable(width: width, height: height) else {
                png_image_free(&image)
                throw CGImageCodecError.unsupportedSize(width: width, height: height)
            }
            // Deflate shrinks data at most about 1,032 times: a file much
            // shorter than its rows (at one bit per pixel) would need ends
            // early, so it is refused before its pixels are allocated.
            let rowBytes = height * (1 + (width + 7) / 8)
            let imageData: Int
            do {
                imageData = try pngImageDataLength(bytes)
            } catch {
                png_image_free(&image)
                throw error
            }
            guard imageData >= rowBytes / pngMaximumCompression else {
                png_image_free(&image)
                throw CGImageCodecError.invalidData("a PNG of \(width)×\(height) pixels needs at least \(rowBytes / pngMaximumCompression) bytes of image data; this one has \(imageData)")
            }
            image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)   // PNG_FORMAT_RGBA, a macro Swift cannot import
            var failure: CGImageCodecError?
            let decoded = CGImage(width: width, height: height) { pixels in
                if png_image_finish_read(&image, nil, pixels.base, Int32(width * 4), nil) == 0 {
                    failure = .invalidData(message(of: &image))
                    return
                }
                premultiplyInPlace(pixels)
            }
            if let failure { throw failure }
            return decoded!
        }
    }

    private static func decodeJPEG(_ data: Data) throws -> CGImage {
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var info = jpeg_codec_info()
            guard jpeg_codec_read_header(bytes.baseAddress, bytes.count, &info) == 0 else {
                throw CGImageCodecError.invalidData(text(of: &info))
            }
            let width = Int(info.width), height = Int(info.height)
            guard isAllocatable(width: width, height: height) else {
                throw CGImageCodecError.unsupportedSize(width: width, height: height)
            }
            // Huffman coding spends at least one bit on the first coefficient
            // of each 8×8 block: a file shorter than that for its size ends
            // early, so it is refused before its pixels are allocated.
            // Arithmetic coding can spend far less than a bit per block, so
            // no size is too small for it; but a scan with no data at all is
            // no picture (libjpeg would decode it as gray, slowly).
            guard info.empty_scan == 0 else {
                throw CGImageCodecError.invalidData("the JPEG's first scan holds no data")
            }
            let blocks = ((width + 7) / 8) * ((height + 7) / 8)
            guard info.arithmetic != 0 || bytes.count * 8 >= blocks else {
                throw CGImageCodecError.invalidData("a JPEG of \(width)×\(height) pixels needs at least \((blocks + 7) / 8) bytes; this one has \(bytes.count)")
            }
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            guard jpeg_codec_decode(bytes.baseAddress, bytes.count, &rgb, &info) == 0 else {
                throw CGImageCodecError.invalidData(text(of: &info))
            }
            return CGImage(width: width, height: height) { pixels in
                for y in 0..<height {
                    let row = pixels.row(y).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width {
                        let s = (y * width + x) * 3
                        (row[x * 4], row[x * 4 + 1], row[x * 4 + 2], row[x * 4 + 3]) = (rgb[s], rgb[s + 1], rgb[s + 2], 255)
                    }
                }
            }!
        }
    }
}

private func message(of image: inout png_image) -> String {
    withUnsafeBytes(of: &image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}

private func text(of info: inout jpeg_codec_info) -> String {
    withUnsafeBytes(of: &info.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}

private func premultiplyInPlace(_ pixels: PixelBuffer) {
    for y in 0..<pixels.height {
        let row = pixels.row(y).assumingMemoryBound(to: UInt8.self)
        for x in 0..<pixels.width where row[x * 4 + 3] != 255 {
            let a = row[x * 4 + 3]
            row[x * 4] = multiply(row[x * 4], a)
            row[x * 4 + 1] = multiply(row[x * 4 + 1], a)
            row[x * 4 + 2] = multiply(row[x * 4 + 2], a)
        }
    }
}

/// A premultiplied component back to straight colour, rounded.
private func unpremultiply(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
    guard alpha != 0 else { return 0 }
    guard alpha != 255 else { return value }
    let straight: UInt32 = (UInt32(value) * 255 + UInt32(alpha) / 2) / UInt32(alpha)
    return UInt8(min(255, straight))
}
