/// Why an output could not be opened. Each message says what was tried and
/// what to do about it.
public enum DisplayError: Error, Equatable, CustomStringConvertible {
    /// No X server answered at the display name (or `DISPLAY` is unset).
    case cannotOpenXDisplay(name: String)
    /// The X server offers no TrueColor visual of 24 or 32 bits.
    case unsupportedXVisual(name: String, reason: String)
    /// The window scale is not a positive number.
    case invalidWindowScale(Double)
    /// The frame buffer device could not be opened or read.
    case frameBufferUnavailable(path: String, reason: String)
    /// The frame buffer stores pixels in a way the server cannot write.
    case unsupportedFrameBuffer(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpenXDisplay(let name):
            let shown = name.isEmpty ? "(DISPLAY is not set)" : "\"\(name)\""
            return "cannot open the X display \(shown): start an X server (or Xvfb) and set DISPLAY, "
                + "or choose another output with --display fb or --display headless"
        case .unsupportedXVisual(let name, let reason):
            return "the X display \"\(name)\" cannot show frames: \(reason); run its X server at depth 24 "
                + "(Xvfb -screen 0 1280x1024x24) or use --display headless"
        case .invalidWindowScale(let scale):
            return "the window scale \(scale) is not a positive number: give one such as 0.5 or 1"
        case .frameBufferUnavailable(let path, let reason):
            return "cannot use the frame buffer \(path): \(reason); check that the device exists and that this user "
                + "may open it (the video group), or use --display x11 or --display headless"
        case .unsupportedFrameBuffer(let path, let reason):
            return "the frame buffer \(path) cannot be written: \(reason); set a 16-, 24- or 32-bit "
                + "true-colour mode (fbset -depth 32) or use --display headless"
        }
    }
}
