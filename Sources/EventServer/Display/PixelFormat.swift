import HID

/// How a screen stores one pixel: the bits of each colour channel in a
/// little- or big-endian word of 16, 24 or 32 bits. An X visual gives it as
/// three masks (`red_mask`, …), the frame buffer as `fb_bitfield`s
/// (`offset`, `length`); both come down to this.
public struct PixelFormat: Equatable, Sendable, CustomStringConvertible {
    /// Where a channel's bits are in the pixel's word.
    public struct Channel: Equatable, Sendable {
        /// The lowest bit.
        public var offset: Int
        /// How many bits, 1…8 (wider channels keep their top 8 bits' worth).
        public var length: Int

        /// The channel `length` bits wide whose lowest bit is bit `offset`.
        public init(offset: Int, length: Int) {
            self.offset = offset
            self.length = length
        }

        /// The channel a contiguous mask describes (`0xFF0000` → offset 16,
        /// length 8); nil for an empty or split mask.
        public init?(mask: UInt) {
            guard mask != 0 else { return nil }
            let offset = mask.trailingZeroBitCount
            let shifted = mask >> UInt(offset)
            guard shifted & (shifted &+ 1) == 0 else { return nil }
            self.init(offset: offset, length: UInt.bitWidth - shifted.leadingZeroBitCount)
        }
    }

    /// The size of one pixel's word: 16, 24 or 32.
    public var bitsPerPixel: Int
    /// Where each colour channel's bits are.
    public var red: Channel
    public var green: Channel
    public var blue: Channel
    /// Filled with ones (opaque): a screen shows no transparency.
    public var alpha: Channel?
    /// Whether the pixel's word is stored most significant byte first (an
    /// X image's `MSBFirst`); the frame buffer uses the machine's order.
    public var isBigEndian: Bool

    /// A format with these channels; check ``unsupportedReason`` before writing it.
    public init(bitsPerPixel: Int, red: Channel, green: Channel, blue: Channel, alpha: Channel? = nil, isBigEndian: Bool = false) {
        self.bitsPerPixel = bitsPerPixel
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        self.isBigEndian = isBigEndian
    }

    /// The 32-bit `x8r8g8b8` of an X server at depth 24 on a little-endian
    /// machine: bytes B, G, R, unused.
    public static let xrgb8888 = PixelFormat(
        bitsPerPixel: 32,
        red: Channel(offset: 16, length: 8), green: Channel(offset: 8, length: 8), blue: Channel(offset: 0, length: 8)
    )

    /// 16-bit `r5g6b5`, common on small frame buffers.
    public static let rgb565 = PixelFormat(
        bitsPerPixel: 16,
        red: Channel(offset: 11, length: 5), green: Channel(offset: 5, length: 6), blue: Channel(offset: 0, length: 5)
    )

    /// The bytes one pixel takes in memory.
    public var bytesPerPixel: Int { bitsPerPixel / 8 }

    /// Why this format cannot be written, or nil when it can: whole bytes
    /// of 2 to 4 per pixel, channels of 1 to 8 bits inside the pixel.
    public var unsupportedReason: String? {
        guard [16, 24, 32].contains(bitsPerPixel) else {
            return "\(bitsPerPixel) bits per pixel (only 16, 24 and 32 are written)"
        }
        for (name, channel) in [("red", red), ("green", green), ("blue", blue)] + (alpha.map { [("alpha", $0)] } ?? []) {
            guard (1...8).contains(channel.length), channel.offset >= 0, channel.offset + channel.length <= bitsPerPixel else {
                return "the \(name) channel (offset \(channel.offset), \(channel.length) bits) does not fit a \(bitsPerPixel)-bit pixel of 1–8-bit channels"
            }
        }
        return nil
    }

    public var description: String {
        func bits(_ channel: Channel) -> String { "\(channel.length)@\(channel.offset)" }
        var text = "\(bitsPerPixel) bpp, red \(bits(red)), green \(bits(green)), blue \(bits(blue))"
        if let alpha { text += ", alpha \(bits(alpha))" }
        if isBigEndian { text += ", big-endian" }
        return text
    }

    /// The pixel's word for 8-bit red, green and blue.
    @inline(__always)
    func word(red r: UInt32, green g: UInt32, blue b: UInt32) -> UInt32 {
        Self.place(r, red) | Self.place(g, green) | Self.place(b, blue) | opaqueBits
    }

    private var opaqueBits: UInt32 {
        guard let alpha else { return 0 }
        return ((1 << UInt32(alpha.length)) - 1) << UInt32(alpha.offset)
    }

    /// An 8-bit value in a channel of `length` bits, rounded to nearest.
    @inline(__always)
    private static func place(_ value: UInt32, _ channel: Channel) -> UInt32 {
        let maximum: UInt32 = (1 << UInt32(channel.length)) - 1
        let scaled = channel.length == 8 ? value : (value * maximum + 127) / 255
        return scaled << UInt32(channel.offset)
    }
}

extension Array where Element == Int {
    /// The first index whose element satisfies `belongs`, for elements in
    /// order that satisfy it from some index on (the array's count if none does).
    fileprivate func partitioningIndex(where belongs: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// Turns an application's frame (RGBA, premultiplied, at the screen's
/// scale) into a screen's pixels: scaled to the screen's size and written
/// in its ``PixelFormat``. Pure arithmetic on memory, shared by every output.
///
/// Scaling down averages the box of frame pixels under each screen pixel
/// (a 3× frame in a 1× window: 3 × 3 pixels each), which is exact for
/// premultiplied colours; scaling up repeats the nearest pixel. Each
/// screen pixel's box is worked out once, when the converter is made.
/// Alpha is dropped: premultiplied colour is already the colour over black.
public struct FrameConverter {
    /// The frame's size in pixels.
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// The screen's (or the window's) size in pixels.
    public let destinationWidth: Int
    public let destinationHeight: Int
    /// How the screen stores a pixel.
    public let format: PixelFormat
    /// Frame columns (rows) `[start[i], end[i])` make screen column (row) `i`.
    private let columnStart: [Int]
    private let columnEnd: [Int]
    private let rowStart: [Int]
    private let rowEnd: [Int]

    /// A converter from frames of one size to a screen of another; neither may be empty.
    public init(sourceWidth: Int, sourceHeight: Int, destinationWidth: Int, destinationHeight: Int, format: PixelFormat) {
        precondition(sourceWidth > 0 && sourceHeight > 0 && destinationWidth > 0 && destinationHeight > 0, "empty frame or screen")
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.destinationWidth = destinationWidth
        self.destinationHeight = destinationHeight
        self.format = format
        (columnStart, columnEnd) = Self.boxes(source: sourceWidth, destination: destinationWidth)
        (rowStart, rowEnd) = Self.boxes(source: sourceHeight, destination: destinationHeight)
        isThreeByThree = sourceWidth == destinationWidth * 3 && sourceHeight == destinationHeight * 3
    }

    /// Whether each screen pixel is the 3 × 3 box of frame pixels at three
    /// times its position: an iPhone's 3× frame in a window at the
    /// screen's size in points, the common case, which has a loop of its own.
    private let isThreeByThree: Bool

    /// Which frame pixels make each screen pixel along one axis.
    private static func boxes(source: Int, destination: Int) -> ([Int], [Int]) {
        var starts: [Int] = []
        var ends: [Int] = []
        starts.reserveCapacity(destination)
        ends.reserveCapacity(destination)
        for index in 0..<destination {
            let start = min(index * source / destination, source - 1)
            let end = max(start + 1, min((index + 1) * source / destination, source))
            starts.append(start)
            ends.append(end)
        }
        return (starts, ends)
    }

    /// The screen pixels that frame pixels `rect` (clipped to the frame)
    /// touch; nil when none.
    public func destinationRect(covering rect: ServerMessage.PixelRect) -> ServerMessage.PixelRect? {
        let x0 = Int(rect.x), y0 = Int(rect.y)
        let x1 = min(x0 + Int(rect.width), sourceWidth), y1 = min(y0 + Int(rect.height), sourceHeight)
        guard x0 < x1, y0 < y1 else { return nil }
        guard let (left, right) = Self.span(start: columnStart, end: columnEnd, from: x0, to: x1),
              let (top, bottom) = Self.span(start: rowStart, end: rowEnd, from: y0, to: y1) else { return nil }
        return ServerMessage.PixelRect(x: UInt32(left), y: UInt32(top), width: UInt32(right - left), height: UInt32(bottom - top))
    }

    /// The screen indices whose boxes meet frame indices `[from, to)`.
    private static func span(start: [Int], end: [Int], from: Int, to: Int) -> (Int, Int)? {
        // Boxes are in order and never empty: binary-search both edges.
        var low = 0, high = end.count
        while low < high {
            let middle = (low + high) / 2
            if end[middle] <= from { low = middle + 1 } else { high = middle }
        }
        let first = low
        low = first
        high = start.count
        while low < high {
            let middle = (low + high) / 2
            if start[middle] < to { low = middle + 1 } else { high = middle }
        }
        return first < low ? (first, low) : nil
    }

    /// What a frame's scroll makes of the screen's picture: the move of
    /// screen pixels that gives the same pixels as converting the scrolled
    /// frame, and the screen rectangles under the scroll's rectangle that
    /// the move does not give, to be converted from the frame (boxes that
    /// straddle the rectangle's edges; what the scroll brought into view,
    /// which the commit's damage has too). The move is exact: a screen
    /// pixel moves only when its box of frame pixels, moved back by the
    /// scroll, is exactly another screen pixel's box inside the rectangle.
    /// So in a 1× window of a 3× frame a scroll of whole points (3 pixels)
    /// moves and one of a pixel does not (every screen pixel's average
    /// changes): then the move is nil and the whole rectangle is converted.
    func screenMove(for scroll: ServerMessage.FrameScroll) -> (move: PixelMove?, convert: [ServerMessage.PixelRect]) {
        guard let cover = destinationRect(covering: scroll.rect) else { return (nil, []) }
        let x0 = Int(scroll.rect.x), y0 = Int(scroll.rect.y)
        guard let columns = Self.shift(start: columnStart, end: columnEnd, from: x0, to: x0 + Int(scroll.rect.width), by: Int(scroll.dx)),
              let rows = Self.shift(start: rowStart, end: rowEnd, from: y0, to: y0 + Int(scroll.rect.height), by: Int(scroll.dy)) else {
            return (nil, [cover])
        }
        let destination = ServerMessage.PixelRect(
            x: UInt32(columns.range.lowerBound), y: UInt32(rows.range.lowerBound),
            width: UInt32(columns.range.count), height: UInt32(rows.range.count))
        return (PixelMove(destination: destination, dx: columns.distance, dy: rows.distance), cover.parts(notCoveredBy: destination))
    }

    /// Along one axis, frame indices `[from, to)` moved by `distance`: the
    /// screen indices whose boxes lie inside them both now and `distance`
    /// before, and how many screen indices back each one's box is, moved
    /// back by `distance`; nil when none moves, or when not all of them
    /// find their box (the boxes' spacing does not divide the distance).
    private static func shift(start: [Int], end: [Int], from: Int, to: Int, by distance: Int) -> (range: Range<Int>, distance: Int)? {
        let low = max(from, from + distance), high = min(to, to + distance)
        guard low < high else { return nil }
        // The first screen index whose box starts at or after `low`, and
        // the first whose box ends after `high`: boxes are in order.
        let first = start.partitioningIndex { $0 >= low }, last = end.partitioningIndex { $0 > high }
        guard first < last else { return nil }
        guard distance != 0 else { return (first..<last, 0) }
        let sourceStart = start[first] - distance, sourceEnd = end[first] - distance
        let source = start.partitioningIndex { $0 >= sourceStart }
        guard source < start.count, start[source] == sourceStart else { return nil }
        // Boxes may repeat where the screen is larger than the frame: the
        // first of the repeats that matches starts the run.
        var match = source
        while match < start.count, start[match] == sourceStart, end[match] != sourceEnd { match += 1 }
        guard match < start.count, start[match] == sourceStart else { return nil }
        let shift = first - match
        for index in first..<last {
            let other = index - shift
            guard other >= 0, other < start.count, start[other] == start[index] - distance, end[other] == end[index] - distance else { return nil }
        }
        return (first..<last, shift)
    }

    /// Writes screen pixels `rect` (in the destination's coordinates, as
    /// ``destinationRect(covering:)`` gives) from `frame` into
    /// `destination`, whose rows are `destinationStride` bytes apart.
    ///
    /// This runs for every pixel of every frame shown, so it reads each
    /// frame pixel as one 32-bit word and sums two channels per add (red and
    /// blue in one word's 16-bit halves, green and alpha in the other's,
    /// which hold up to 257 pixels' worth); the averages divide by a
    /// multiply, and the common screen format (32 bits, 8-bit channels,
    /// little-endian) is packed with shifts alone. `PixelFormatTests` and
    /// the Xvfb tests check the results to the last bit;
    /// docs/performance.md has the cost.
    public func convert(_ frame: DisplayFrame, rect: ServerMessage.PixelRect, into destination: UnsafeMutableRawPointer, destinationStride: Int) {
        precondition(frame.width == sourceWidth && frame.height == sourceHeight, "frame of \(frame.width)x\(frame.height), converter for \(sourceWidth)x\(sourceHeight)")
        let left = Int(rect.x), top = Int(rect.y)
        let right = min(left + Int(rect.width), destinationWidth), bottom = min(top + Int(rect.height), destinationHeight)
        guard left < right, top < bottom else { return }
        let bytesPerPixel = format.bytesPerPixel
        let isOneToOne = sourceWidth == destinationWidth && sourceHeight == destinationHeight
        let packsByShifting = format.bitsPerPixel == 32 && !format.isBigEndian
            && [format.red, format.green, format.blue].allSatisfy { $0.length == 8 && $0.offset % 8 == 0 }
            && (format.alpha.map { $0.length == 8 } ?? true)
        let redShift = UInt32(format.red.offset), greenShift = UInt32(format.green.offset), blueShift = UInt32(format.blue.offset)
        let opaque = format.alpha.map { UInt32(0xFF) << UInt32($0.offset) } ?? 0
        if isOneToOne && packsByShifting {
            // The frame buffer at the frame's own size, or a window at the
            // screen's scale: a straight copy that moves the channels.
            for y in top..<bottom {
                let from = frame.row(y) + left * 4
                let to = destination + y * destinationStride + left * 4
                for index in 0..<(right - left) {
                    let pixel = UInt32(littleEndian: from.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
                    let word = (pixel & 0xFF) << redShift | ((pixel >> 8) & 0xFF) << greenShift | ((pixel >> 16) & 0xFF) << blueShift | opaque
                    to.storeBytes(of: word.littleEndian, toByteOffset: index * 4, as: UInt32.self)
                }
            }
            return
        }
        if isThreeByThree {
            // The same sums and division as `average`, with each box's
            // three rows found once per screen row and its nine pixels
            // read in a straight line: a third of the time (a flung list's
            // frame that cannot be moved is converted whole).
            let reciprocal = Self.reciprocals[9]
            @inline(__always) func mean(_ sum: UInt32) -> UInt32 { UInt32(((UInt64(sum) + 4) &* reciprocal) >> 32) }
            for y in top..<bottom {
                let first = frame.row(3 * y), second = frame.row(3 * y + 1), third = frame.row(3 * y + 2)
                let line = destination + y * destinationStride
                for x in left..<right {
                    let offset = x * 12
                    let a = Self.sumOfThree(first + offset), b = Self.sumOfThree(second + offset), c = Self.sumOfThree(third + offset)
                    let redBlue = a.redBlue &+ b.redBlue &+ c.redBlue, greenAlpha = a.greenAlpha &+ b.greenAlpha &+ c.greenAlpha
                    let red = mean(redBlue & 0xFFFF), green = mean(greenAlpha & 0xFFFF), blue = mean(redBlue >> 16)
                    let address = line + x * bytesPerPixel
                    if packsByShifting {
                        address.storeBytes(of: (red << redShift | green << greenShift | blue << blueShift | opaque).littleEndian, as: UInt32.self)
                    } else {
                        Self.store(format.word(red: red, green: green, blue: blue), at: address, bytes: bytesPerPixel, bigEndian: format.isBigEndian)
                    }
                }
            }
            return
        }
        columnStart.withUnsafeBufferPointer { columnStart in
            columnEnd.withUnsafeBufferPointer { columnEnd in
                for y in top..<bottom {
                    let row = destination + y * destinationStride
                    let boxTop = rowStart[y], boxBottom = rowEnd[y]
                    for x in left..<right {
                        let red: UInt32, green: UInt32, blue: UInt32
                        if isOneToOne {
                            let pixel = UInt32(littleEndian: frame.row(boxTop).loadUnaligned(fromByteOffset: x * 4, as: UInt32.self))
                            red = pixel & 0xFF
                            green = (pixel >> 8) & 0xFF
                            blue = (pixel >> 16) & 0xFF
                        } else {
                            (red, green, blue) = Self.average(frame, columns: columnStart[x]..<columnEnd[x], rows: boxTop..<boxBottom)
                        }
                        let address = row + x * bytesPerPixel
                        if packsByShifting {
                            address.storeBytes(of: (red << redShift | green << greenShift | blue << blueShift | opaque).littleEndian, as: UInt32.self)
                        } else {
                            Self.store(format.word(red: red, green: green, blue: blue), at: address, bytes: bytesPerPixel, bigEndian: format.isBigEndian)
                        }
                    }
                }
            }
        }
    }

    /// `⌈2³² / n⌉` for n = 1…257: `(sum · reciprocal) >> 32` is `sum / n`,
    /// exactly, for any sum of up to 257 8-bit values plus half of n.
    private static let reciprocals: [UInt64] = (0...257).map { $0 == 0 ? 0 : ((1 << 32) + UInt64($0) - 1) / UInt64($0) }

    /// Three pixels side by side from `pixel` on, summed two channels per
    /// add as `average` sums them: red and blue in one word's halves,
    /// green and alpha in the other's.
    @inline(__always)
    private static func sumOfThree(_ pixel: UnsafeRawPointer) -> (redBlue: UInt32, greenAlpha: UInt32) {
        let p0 = UInt32(littleEndian: pixel.loadUnaligned(as: UInt32.self))
        let p1 = UInt32(littleEndian: pixel.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        let p2 = UInt32(littleEndian: pixel.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        return ((p0 & 0x00FF_00FF) &+ (p1 & 0x00FF_00FF) &+ (p2 & 0x00FF_00FF),
                ((p0 >> 8) & 0x00FF_00FF) &+ ((p1 >> 8) & 0x00FF_00FF) &+ ((p2 >> 8) & 0x00FF_00FF))
    }

    /// The rounded mean colour of the frame pixels in a box (its rows
    /// found one by one: the frame's ring of rows may wrap inside it).
    @inline(__always)
    private static func average(_ frame: DisplayFrame, columns: Range<Int>, rows: Range<Int>) -> (UInt32, UInt32, UInt32) {
        let count = columns.count * rows.count
        if count <= 257 {
            var redBlue: UInt32 = 0, greenAlpha: UInt32 = 0
            for sourceY in rows {
                let line = frame.row(sourceY)
                for sourceX in columns {
                    let pixel = UInt32(littleEndian: line.loadUnaligned(fromByteOffset: sourceX * 4, as: UInt32.self))
                    redBlue &+= pixel & 0x00FF_00FF
                    greenAlpha &+= (pixel >> 8) & 0x00FF_00FF
                }
            }
            let reciprocal = reciprocals[count], half = UInt64(count / 2)
            @inline(__always) func mean(_ sum: UInt32) -> UInt32 { UInt32(((UInt64(sum) + half) &* reciprocal) >> 32) }
            return (mean(redBlue & 0xFFFF), mean(greenAlpha & 0xFFFF), mean(redBlue >> 16))
        }
        var red = 0, green = 0, blue = 0
        for sourceY in rows {
            let line = frame.row(sourceY)
            for sourceX in columns {
                let pixel = UInt32(littleEndian: line.loadUnaligned(fromByteOffset: sourceX * 4, as: UInt32.self))
                red += Int(pixel & 0xFF)
                green += Int((pixel >> 8) & 0xFF)
                blue += Int((pixel >> 16) & 0xFF)
            }
        }
        return (UInt32((red + count / 2) / count), UInt32((green + count / 2) / count), UInt32((blue + count / 2) / count))
    }

    @inline(__always)
    private static func store(_ word: UInt32, at address: UnsafeMutableRawPointer, bytes: Int, bigEndian: Bool) {
        switch (bytes, bigEndian) {
        case (4, false): address.storeBytes(of: word.littleEndian, as: UInt32.self)
        case (4, true): address.storeBytes(of: word.bigEndian, as: UInt32.self)
        case (2, false): address.storeBytes(of: UInt16(truncatingIfNeeded: word).littleEndian, as: UInt16.self)
        case (2, true): address.storeBytes(of: UInt16(truncatingIfNeeded: word).bigEndian, as: UInt16.self)
        default:
            for index in 0..<bytes {
                let shift = bigEndian ? (bytes - 1 - index) * 8 : index * 8
                address.storeBytes(of: UInt8(truncatingIfNeeded: word >> UInt32(shift)), toByteOffset: index, as: UInt8.self)
            }
        }
    }
}
