import HID

/// Pixels of a picture moved within it, as a scroll moves them: each pixel
/// of `destination` takes the value of the pixel (`dx`, `dy`) before
/// it, which lies in the moved region too. A frame's scrolls
/// (`ServerMessage.FrameScroll`) are moves of the frame's pixels; an output
/// that keeps its own copy of the screen makes them as moves of the
/// screen's pixels (`FrameConverter.screenMove(for:)`), so that it reads
/// and converts only what the scrolls brought into view.
struct PixelMove: Equatable {
    /// The pixels that change: where the moved ones land.
    var destination: ServerMessage.PixelRect
    var dx: Int
    var dy: Int

    /// The move a frame's scroll makes, or nil when it moves nothing.
    init?(_ scroll: ServerMessage.FrameScroll) {
        let rect = scroll.rect
        let dx = Int(scroll.dx), dy = Int(scroll.dy)
        guard let moved = rect.offsetBy(dx: dx, dy: dy), let destination = rect.intersection(moved) else { return nil }
        self.init(destination: destination, dx: dx, dy: dy)
    }

    init(destination: ServerMessage.PixelRect, dx: Int, dy: Int) {
        self.destination = destination
        self.dx = dx
        self.dy = dy
    }

    /// `rects`, pixels that are wrong (not yet what they should show), after
    /// the move: a wrong pixel moved into `destination` is wrong where it
    /// lands. Those already listed stay listed (some may have been
    /// overwritten with right ones; converting them again costs little,
    /// missing one would leave it wrong).
    func carry(_ rects: inout [ServerMessage.PixelRect]) {
        for index in rects.indices {
            if let landed = rects[index].offsetBy(dx: dx, dy: dy)?.intersection(destination) { rects.append(landed) }
        }
    }

    /// Makes the move in memory whose rows are `stride` bytes apart, of
    /// `bytesPerPixel` each: rows are taken in the order that reads each
    /// source row before it is overwritten (a row moving within itself is
    /// copied as `memmove` does, which `copyMemory` is).
    func apply(to memory: UnsafeMutableRawPointer, stride: Int, bytesPerPixel: Int) {
        let top = Int(destination.y), bottom = top + Int(destination.height)
        let rowBytes = Int(destination.width) * bytesPerPixel
        let left = Int(destination.x) * bytesPerPixel, sourceLeft = (Int(destination.x) - dx) * bytesPerPixel
        func move(_ y: Int) {
            (memory + y * stride + left).copyMemory(from: memory + (y - dy) * stride + sourceLeft, byteCount: rowBytes)
        }
        if dy > 0 {
            for y in (top..<bottom).reversed() { move(y) }
        } else {
            for y in top..<bottom { move(y) }
        }
    }
}

extension ServerMessage.PixelRect {
    /// The same pixels moved by (dx, dy); nil when none of them would be at
    /// a position of zero or more.
    func offsetBy(dx: Int, dy: Int) -> ServerMessage.PixelRect? {
        let left = Int(x) + dx, top = Int(y) + dy
        let right = left + Int(width), bottom = top + Int(height)
        guard right > 0, bottom > 0, width > 0, height > 0 else { return nil }
        let x0 = max(left, 0), y0 = max(top, 0)
        guard right - x0 <= Int(UInt32.max), bottom - y0 <= Int(UInt32.max), x0 <= Int(UInt32.max), y0 <= Int(UInt32.max) else { return nil }
        return ServerMessage.PixelRect(x: UInt32(x0), y: UInt32(y0), width: UInt32(right - x0), height: UInt32(bottom - y0))
    }

    /// The part of `self` that `other` does not cover, as at most four
    /// rectangles: above it, below it, then left and right of it.
    func parts(notCoveredBy other: ServerMessage.PixelRect) -> [ServerMessage.PixelRect] {
        guard let inner = intersection(other) else { return width > 0 && height > 0 ? [self] : [] }
        let right = x + width, bottom = y + height, innerRight = inner.x + inner.width, innerBottom = inner.y + inner.height
        var parts: [ServerMessage.PixelRect] = []
        if inner.y > y { parts.append(.init(x: x, y: y, width: width, height: inner.y - y)) }
        if innerBottom < bottom { parts.append(.init(x: x, y: innerBottom, width: width, height: bottom - innerBottom)) }
        if inner.x > x { parts.append(.init(x: x, y: inner.y, width: inner.x - x, height: inner.height)) }
        if innerRight < right { parts.append(.init(x: innerRight, y: inner.y, width: right - innerRight, height: inner.height)) }
        return parts
    }
}

extension [ServerMessage.PixelRect] {
    /// Adds `rect` unless one of the rectangles already listed holds it:
    /// what a scroll could not move is converted whole, and the rows it
    /// brought into view, in the commit's damage too, need not be again.
    mutating func add(unlessCovered rect: ServerMessage.PixelRect) {
        for other in self where other.intersection(rect) == rect { return }
        append(rect)
    }
}
