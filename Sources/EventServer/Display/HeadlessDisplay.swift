#if canImport(Glibc)
import Glibc
#endif
import CPNG
import HID

/// The output when there is no screen to show frames on: it keeps the
/// screen's pixels, counts the frames shown, and writes each as a PNG file
/// when given a directory (`--frames DIR`: frame-000001.png, …), so that a
/// person or a test can look at what would have been on the screen.
public final class HeadlessDisplay: DisplayOutput {
    public let name: String
    public var fileDescriptor: Int32 { -1 }
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// Frames shown since the display was made.
    public private(set) var frameCount = 0
    /// Where frames are written; nil writes none.
    public let framesDirectory: String?
    /// The title the front application gave the screen.
    public private(set) var title = ""
    private var pixels: [UInt8]
    private var reportedWriteFailure = false
    /// Problems met since the server last asked, for its log.
    private var diagnostics: [String] = []

    /// A screen of `pixelWidth` × `pixelHeight`, black until the first frame.
    public init(pixelWidth: Int, pixelHeight: Int, framesDirectory: String? = nil) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.framesDirectory = framesDirectory
        pixels = [UInt8](repeating: 0, count: pixelWidth * pixelHeight * 4)
        for offset in stride(from: 3, to: pixels.count, by: 4) { pixels[offset] = 255 }
        name = framesDirectory.map { "headless, writing frames to \($0)" } ?? "headless"
    }

    public func show(_ frame: DisplayFrame, damage: [ServerMessage.PixelRect]) {
        pixels.withUnsafeMutableBytes { screen in
            for rect in damage {
                let x0 = min(Int(rect.x), pixelWidth, frame.width), y0 = min(Int(rect.y), pixelHeight, frame.height)
                let x1 = min(x0 + Int(rect.width), pixelWidth, frame.width), y1 = min(y0 + Int(rect.height), pixelHeight, frame.height)
                guard x1 > x0 else { continue }
                for y in y0..<y1 {
                    (screen.baseAddress! + (y * pixelWidth + x0) * 4)
                        .copyMemory(from: frame.pixels + y * frame.stride + x0 * 4, byteCount: (x1 - x0) * 4)
                }
            }
        }
        frameCount += 1
        if let framesDirectory, !reportedWriteFailure { write(to: framesDirectory, name: "frame-\(paddedCount).png") }
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
        let offset = (y * pixelWidth + x) * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    private var paddedCount: String {
        let digits = String(frameCount)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// Frames are opaque (the screen is black where no application draws),
    /// so premultiplied pixels are the straight ones PNG stores. Written
    /// under a hidden name and renamed: a reader never finds half a file.
    private func write(to directory: String, name: String) {
        let path = "\(directory)/.\(name).partial"
        defer { unlink(path) }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(pixelWidth)
        image.height = UInt32(pixelHeight)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA, a macro Swift cannot import
        let written = pixels.withUnsafeBytes { bytes in
            png_image_write_to_file(&image, path, 0, bytes.baseAddress, Int32(pixelWidth * 4), nil)
        }
        png_image_free(&image)
        if written != 0 && rename(path, "\(directory)/\(name)") == 0 { return }
        if !reportedWriteFailure {
            reportedWriteFailure = true
            diagnostics.append("cannot write frames to \(path); frames are still counted but no longer written")
        }
    }
}
