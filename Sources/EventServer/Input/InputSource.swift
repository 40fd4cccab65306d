import HID

/// Where the event server's HID events come from: an evdev device, a file or
/// FIFO of kernel input records, an evemu recording, a replayed HID stream,
/// or synthetic input.
///
/// The server waits until ``fileDescriptor`` is readable, then calls
/// ``readEvents()``, which must not block. Timestamps are seconds of
/// `CLOCK_MONOTONIC`, the clock every process on the machine shares.
public protocol InputSource: AnyObject {
    /// What the source is, for diagnostics: a device path, a file name.
    var name: String { get }
    /// The descriptor to wait on; readable when ``readEvents()`` has work.
    var fileDescriptor: Int32 { get }
    /// Reads what is available and returns the HID events it completed, in
    /// the order they happened. Returns an empty array when nothing is
    /// complete yet, and throws ``InputSourceError/endOfInput`` once the
    /// source has nothing more to give (a file read to its end, a device
    /// unplugged).
    func readEvents() throws(InputSourceError) -> [HIDEvent]
    /// Problems the source met and skipped since the last call (a dropped
    /// scan, an unknown code, a timestamp that went back), for the server's
    /// log. Reading goes on after each of them.
    func takeDiagnostics() -> [String]
}

extension InputSource {
    /// A source that reports no problems.
    public func takeDiagnostics() -> [String] { [] }
}

/// Why an input source stopped or skipped input.
public enum InputSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The source has nothing more to give.
    case endOfInput
    /// The source could not be read; the message says what to do about it.
    case unreadable(String)

    public var description: String {
        switch self {
        case .endOfInput: "end of input"
        case .unreadable(let message): message
        }
    }
}
