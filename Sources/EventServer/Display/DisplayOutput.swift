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
    /// (``showsFramesInPlace`` false) copies `damage` (rectangles of
    /// `frame`, in its pixels), converting to the screen's pixel format and
    /// scale; what lies outside `damage` is on the screen already from
    /// earlier frames; it returns once the frame's pixels have been read,
    /// and the server gives the buffer back to its application then. One
    /// that shows frames in place keeps `frame` and reads it until the
    /// next call.
    func show(_ frame: DisplayFrame, damage: [ServerMessage.PixelRect])
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
    /// ``show(_:damage:)`` or ``setTitle(_:)``. The server calls
    /// ``handleEvents()`` after those when this is true.
    var hasPendingEvents: Bool { get }
}

extension DisplayOutput {
    /// An output whose events are only ever read in ``handleEvents()`` has none waiting.
    public var hasPendingEvents: Bool { false }
    /// An output copies what it shows unless it says otherwise.
    public var showsFramesInPlace: Bool { false }
}

/// A frame as the server hands it to an output: the pixels of one of an
/// application's shared buffers, RGBA, premultiplied, 4 bytes each.
public struct DisplayFrame {
    public let pixels: UnsafeRawPointer
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    /// The shared buffer the pixels are in, when they are one: an output
    /// that keeps the frame keeps the buffer mapped with it, even after its
    /// application has gone.
    public let buffer: SharedFrameBuffer?

    public init(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
        buffer = nil
    }

    /// The frame in an application's shared buffer.
    public init(_ buffer: SharedFrameBuffer) {
        pixels = UnsafeRawPointer(buffer.pixels)
        width = buffer.width
        height = buffer.height
        stride = buffer.stride
        self.buffer = buffer
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
