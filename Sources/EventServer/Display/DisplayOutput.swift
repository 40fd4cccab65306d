import HID

/// Where the event server shows the front application's frames: a window on
/// an X display, the Linux frame buffer, or nowhere (headless).
///
/// The server owns the frame clock and the applications' buffers; an output
/// only puts pixels on its screen and reports what happened to it. It is
/// polled in the server's one loop, like an input source.
public protocol DisplayOutput: AnyObject {
    /// What it is, for the log: "an X window on :99 (MIT-SHM)", "/dev/fb0".
    var name: String { get }
    /// The descriptor the server polls for the output's own events (the X
    /// connection); -1 when it has none.
    var fileDescriptor: Int32 { get }
    /// Puts `frame` on the screen. An output that copies
    /// (``showsFramesInPlace`` false) makes `scrolls` in its copy of the
    /// screen, in order (the pixels each moved are on the screen already,
    /// elsewhere: it may move them rather than read them again, or read
    /// each scroll's rectangle), then copies `damage` (rectangles of
    /// `frame`, in its pixels), converting to the screen's pixel format and
    /// scale; what lies outside both is on the screen already from earlier
    /// frames; it returns once the frame's pixels have been read, and the
    /// server gives the buffer back to its application then. One that
    /// shows frames in place keeps `frame` and reads it until the next call.
    func show(_ frame: DisplayFrame, scrolls: [ServerMessage.FrameScroll], damage: [ServerMessage.PixelRect])
    /// Whether the output shows the application's buffer itself instead of
    /// copying it, as a display scans out a Wayland client's buffer: the
    /// server then holds the buffer on the screen until a newer frame
    /// replaces it, and only then gives it back.
    var showsFramesInPlace: Bool { get }
    /// What the screen says it shows: the window's title, the front
    /// application's name.
    func setTitle(_ title: String)
    /// Handles what made ``fileDescriptor`` readable, without blocking.
    func handleEvents() -> DisplayEvents
    /// Whether events wait that polling ``fileDescriptor`` will not report:
    /// a library such as Xlib may read them off the connection inside
    /// ``show(_:scrolls:damage:)`` or ``setTitle(_:)``. The server calls
    /// ``handleEvents()`` after those when this is true.
    var hasPendingEvents: Bool { get }
}

extension DisplayOutput {
    /// Puts `frame` on the screen where only `damage` changed, nothing moved.
    public func show(_ frame: DisplayFrame, damage: [ServerMessage.PixelRect]) {
        show(frame, scrolls: [], damage: damage)
    }
    /// An output whose events are only ever read in ``handleEvents()`` has none waiting.
    public var hasPendingEvents: Bool { false }
    /// An output copies what it shows unless it says otherwise.
    public var showsFramesInPlace: Bool { false }
}

/// A frame as the server hands it to an output: the pixels of one of an
/// application's shared buffers, RGBA, premultiplied, 4 bytes each, in a
/// ring of rows: the frame's top row is the memory's row ``firstRow``,
/// the rows after it follow to the memory's last and go on from its
/// first (an application scrolls a list as wide as the screen by moving
/// its first row, not its pixels). Read rows with ``row(_:)``.
public struct DisplayFrame {
    public let pixels: UnsafeRawPointer
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    /// The memory row that holds the frame's top row, below ``height``.
    public let firstRow: Int
    /// The shared buffer the pixels are in, when they are one: an output
    /// that keeps the frame keeps the buffer mapped with it, even after its
    /// application has gone.
    public let buffer: SharedFrameBuffer?

    public init(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int, firstRow: Int = 0) {
        precondition(firstRow >= 0 && firstRow < max(height, 1), "first row \(firstRow) of a frame of \(height) rows")
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
        self.firstRow = firstRow
        buffer = nil
    }

    /// The frame in an application's shared buffer, its top row at memory
    /// row `firstRow` (the commit's, which the server checked).
    public init(_ buffer: SharedFrameBuffer, firstRow: Int = 0) {
        precondition(firstRow >= 0 && firstRow < buffer.height, "first row \(firstRow) of a buffer of \(buffer.height) rows")
        pixels = UnsafeRawPointer(buffer.pixels)
        width = buffer.width
        height = buffer.height
        stride = buffer.stride
        self.firstRow = firstRow
        self.buffer = buffer
    }

    /// Where the frame's row `y` (0 at the top) lies in memory.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeRawPointer {
        let memoryRow = y + firstRow
        return pixels + (memoryRow < height ? memoryRow : memoryRow - height) * stride
    }
}

/// What an output's events amounted to.
public struct DisplayEvents {
    /// Input from the output itself (the window's pointer, keys and
    /// touches), in the order it happened, as HID events with
    /// `CLOCK_MONOTONIC` timestamps; the server dispatches them as it does a
    /// device's.
    public var input: [HIDEvent]
    /// The user closed the output (the window's close button): the server stops.
    public var isClosed: Bool
    /// Problems met and skipped, for the server's log.
    public var diagnostics: [String]

    public init(input: [HIDEvent] = [], isClosed: Bool = false, diagnostics: [String] = []) {
        self.input = input
        self.isClosed = isClosed
        self.diagnostics = diagnostics
    }
}
