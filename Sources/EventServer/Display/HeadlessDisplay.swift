#if canImport(Glibc)
import Glibc
#endif
import CPNG
import HID

/// The output when there is no screen to show frames on: it counts the
/// frames shown, and writes each as a PNG file when given a directory
/// (`--frames DIR`: frame-000001.png, …), so that a person or a test can
/// look at what would have been on the screen.
///
/// It shows each frame in place: the screen *is* the application's buffer
/// of the frame shown last, as a display scans out a Wayland client's
/// buffer, so showing a frame copies nothing. The server holds that buffer
/// until a newer frame replaces it (``showsFramesInPlace``), and the frame
/// keeps the buffer mapped even when its application goes away.
public final class HeadlessDisplay: DisplayOutput {
    public let name: String
    public var fileDescriptor: Int32 { -1 }
    public var showsFramesInPlace: Bool { true }
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// Frames shown since the display was made.
    public private(set) var frameCount = 0
    /// Where frames are written; nil writes none.
    public let framesDirectory: String?
    /// The title the front application gave the screen.
    public private(set) var title = ""
    /// The frame on the screen; nil (black) until the first.
    private var shown: DisplayFrame?
    private var reportedWriteFailure = false
    /// Problems met since the server last asked, for its log.
    private var diagnostics: [String] = []

    /// A screen of `pixelWidth` × `pixelHeight`, black until the first frame.
    public init(pixelWidth: Int, pixelHeight: Int, framesDirectory: String? = nil) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.framesDirectory = framesDirectory
        name = framesDirectory.map { "headless, writing frames to \($0)" } ?? "headless"
    }

    /// Keeps `frame` as the screen: its buffer holds the whole frame, so
    /// the scrolls and damage say nothing the screen needs.
    public func show(_ frame: DisplayFrame, scrolls: [ServerMessage.FrameScroll], damage: [ServerMessage.PixelRect]) {
        shown = frame
        frameCount += 1
        if let framesDirectory, !reportedWriteFailure { write(frame, to: framesDirectory, name: "frame-\(paddedCount).png") }
    }

    public func setTitle(_ title: String) {
        self.title = title
    }

    public func handleEvents() -> DisplayEvents {
        defer { diagnostics = [] }
        return DisplayEvents(diagnostics: diagnostics)
    }

    /// The pixel at (x, y) of the screen, premultiplied (red, green, blue, alpha).
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        guard let shown, x < shown.width, y < shown.height else { return (0, 0, 0, 255) }
        let pixel = shown.row(y) + x * 4
        return (pixel.load(as: UInt8.self), pixel.load(fromByteOffset: 1, as: UInt8.self),
                pixel.load(fromByteOffset: 2, as: UInt8.self), pixel.load(fromByteOffset: 3, as: UInt8.self))
    }

    private var paddedCount: String {
        let digits = String(frameCount)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// Frames are opaque (the screen is black where no application draws),
    /// so premultiplied pixels are the straight ones PNG stores. Written
    /// under a hidden name and renamed: a reader never finds half a file.
    private func write(_ frame: DisplayFrame, to directory: String, name: String) {
        let path = "\(directory)/.\(name).partial"
        defer { unlink(path) }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(frame.width)
        image.height = UInt32(frame.height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA, a macro Swift cannot import
        // The row stride counts components, which are bytes at 8 bits each.
        // libpng's simplified writer takes rows in order: a frame whose ring
        // of rows is turned is put in order first (a PNG costs far more).
        var inOrder: [UInt8] = []
        if frame.firstRow != 0 {
            let rowBytes = frame.width * 4
            inOrder.reserveCapacity(rowBytes * frame.height)
            for y in 0..<frame.height { inOrder.append(contentsOf: UnsafeRawBufferPointer(start: frame.row(y), count: rowBytes)) }
        }
        let written = inOrder.isEmpty
            ? png_image_write_to_file(&image, path, 0, frame.pixels, Int32(frame.stride), nil)
            : png_image_write_to_file(&image, path, 0, inOrder, Int32(frame.width * 4), nil)
        png_image_free(&image)
        if written != 0 && rename(path, "\(directory)/\(name)") == 0 { return }
        if !reportedWriteFailure {
            reportedWriteFailure = true
            diagnostics.append("cannot write frames to \(path); frames are still counted but no longer written")
        }
    }
}
