#if canImport(Glibc)
import Glibc
#endif

/// Picks the server's output from `--display`, or, without it, the best one
/// the machine has: a window when `DISPLAY` is set, else the frame buffer
/// when `/dev/fb0` opens, else headless. The choice is logged.
public enum DisplayChoice {
    /// Whether `DISPLAY` names an X display (an empty one does not).
    public static var hasDisplayVariable: Bool {
        guard let value = getenv("DISPLAY") else { return false }
        return value.pointee != 0
    }

    /// The output `name` (x11, fb, headless), or the best there is. The
    /// window's pointer and keys become contacts numbered by `identifiers`,
    /// shared with the devices, so that no two sources reuse an identifier.
    public static func open(
        _ name: String?, screen: Screen, framesDirectory: String?, windowScale: Double? = nil,
        identifiers: ContactIdentifiers, log: (String) -> Void
    ) throws(EventServerError) -> any DisplayOutput {
        let pixelWidth = screen.pixelWidth, pixelHeight = screen.pixelHeight
        if let framesDirectory, name != nil && name != "headless" {
            throw .display("--frames \(framesDirectory) writes a headless display's frames; it needs --display headless")
        }
        switch name {
        case "headless":
            return try headless(pixelWidth: pixelWidth, pixelHeight: pixelHeight, framesDirectory: framesDirectory)
        case "x11":
            return try window(screen: screen, windowScale: windowScale, identifiers: identifiers, log: log)
        case "fb":
            do {
                return try FrameBufferDisplay(screen: screen)
            } catch {
                throw .display("\(error)")
            }
        default:
            if framesDirectory == nil && hasDisplayVariable {
                log("DISPLAY is set: frames go to a window (--display headless to write them as files instead)")
                return try window(screen: screen, windowScale: windowScale, identifiers: identifiers, log: log)
            }
            if framesDirectory == nil, let frameBuffer = try? FrameBufferDisplay(screen: screen) {
                log("no DISPLAY, and /dev/fb0 opens: frames go to the frame buffer")
                return frameBuffer
            }
            log("no DISPLAY and no frame buffer: headless (frames are counted\(framesDirectory == nil ? "; --frames DIR writes them as PNG files" : ", and written to \(framesDirectory!)"))")
            return try headless(pixelWidth: pixelWidth, pixelHeight: pixelHeight, framesDirectory: framesDirectory)
        }
    }

    private static func window(screen: Screen, windowScale: Double?, identifiers: ContactIdentifiers, log: (String) -> Void) throws(EventServerError) -> X11Display {
        do {
            let window = try X11Display(screen: screen, windowScale: windowScale, identifiers: identifiers)
            for note in window.notes { log(note) }
            return window
        } catch {
            throw .display("\(error)")
        }
    }

    private static func headless(pixelWidth: Int, pixelHeight: Int, framesDirectory: String?) throws(EventServerError) -> HeadlessDisplay {
        if let framesDirectory {
            var info = stat()
            if stat(framesDirectory, &info) != 0 {
                guard mkdir(framesDirectory, 0o755) == 0 else {
                    throw .display("cannot make the frames directory \(framesDirectory): \(String(cString: strerror(errno)))")
                }
            } else if info.st_mode & S_IFMT != S_IFDIR {
                throw .display("--frames \(framesDirectory) is not a directory")
            }
        }
        return HeadlessDisplay(pixelWidth: pixelWidth, pixelHeight: pixelHeight, framesDirectory: framesDirectory)
    }
}
