#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxInput
import HID

/// Opening input sources by path, and finding the devices under `/dev/input`.
///
/// ```swift
/// let screen = Screen.standard  // 390 × 844 points
/// let source = try InputDevices.open(path: "/dev/input/event3", screen: screen)
/// // poll(source.fileDescriptor), then source.readEvents()
/// ```
public enum InputDevices {
    /// Where the kernel puts evdev device nodes.
    public static let defaultDirectory = "/dev/input"
    /// Opens whatever `path` is, recognised by what it is and holds:
    /// - a character device: an evdev device (``EvdevDeviceSource``);
    /// - a FIFO: `input_event` records or evemu text as they are written
    ///   (``FIFOInputSource``);
    /// - a regular file: a HID recording (see `HIDRecording`), an evemu
    ///   recording or `input_event` records, played with `timing` from
    ///   now and read as it plays (``ReplaySource``).
    ///
    /// `identifiers` should be shared by every source of one server, so that
    /// no two contacts share an identifier. `device` describes the device
    /// behind a FIFO or file of bare records, whose axis ranges then scale
    /// its positions (without it, values are screen points); an evemu
    /// recording describes its own (``InputDeviceDescription/evemuHeader(atPath:)``
    /// reads one for this). Throws a message that says what to do when the
    /// path cannot be used.
    public static func open(
        path: String, screen: Screen, identifiers: ContactIdentifiers = ContactIdentifiers(),
        timing: HIDReplaySchedule.Timing = .recorded(speed: 1), device: InputDeviceDescription? = nil
    ) throws(InputSourceError) -> any InputSource {
        let type: mode_t
        switch SystemCalls.fileType(at: path) {
        case .success(let found): type = found
        case .failure(let error): throw openError(path: path, errno: error.code)
        }
        switch type {
        case S_IFCHR:
            return try EvdevDeviceSource(path: path, screen: screen, identifiers: identifiers)
        case S_IFIFO:
            return try FIFOInputSource(path: path, screen: screen, identifiers: identifiers, device: device)
        case S_IFREG:
            return try ReplaySource(fileAt: path, screen: screen, identifiers: identifiers, device: device, timing: timing)
        default:
            throw .unreadable("\(path): not an input device, a FIFO or a file")
        }
    }

    /// Opens every usable evdev device in `directory` (`event0`, `event1`,
    /// …): touch screens, pointers and keyboards. Devices that are none of
    /// these (a power button's switch, a lid, an accelerometer) are passed
    /// over; devices that cannot be opened are reported. A directory that
    /// does not exist holds no devices.
    public static func discover(
        in directory: String = defaultDirectory, screen: Screen, identifiers: ContactIdentifiers = ContactIdentifiers()
    ) -> (sources: [any InputSource], diagnostics: [String]) {
        var sources: [any InputSource] = []
        var diagnostics: [String] = []
        for path in devicePaths(in: directory) {
            switch openIfUsable(path: path, screen: screen, identifiers: identifiers) {
            case .success(let source?): sources.append(source)
            case .success(nil): diagnostics.append("\(path): not a touch screen, pointer or keyboard; passed over")
            case .failure(let error): diagnostics.append(error.description)
            }
        }
        return (sources, diagnostics)
    }

    /// Opens `path` if it is a touch screen, a pointer or a keyboard (or a
    /// FIFO or file, which say nothing of what they carry); nil otherwise.
    public static func openIfUsable(
        path: String, screen: Screen, identifiers: ContactIdentifiers = ContactIdentifiers()
    ) -> Result<(any InputSource)?, InputSourceError> {
        do throws(InputSourceError) {
            let source = try open(path: path, screen: screen, identifiers: identifiers)
            if let device = source as? EvdevDeviceSource, device.device.capabilities.isEmpty { return .success(nil) }
            return .success(source)
        } catch {
            return .failure(error)
        }
    }

    /// The `event*` entries of `directory`, in number order.
    public static func devicePaths(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var numbers: [Int] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let number = eventNumber(name) { numbers.append(number) }
        }
        return numbers.sorted().map { "\(directory)/event\($0)" }
    }

    /// The number of an `eventN` name.
    static func eventNumber(_ name: String) -> Int? {
        guard name.hasPrefix("event") else { return nil }
        let digits = name.dropFirst(5)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// The error for a path that `open` or `stat` refused, saying what to do.
    static func openError(path: String, errno error: Int32) -> InputSourceError {
        switch error {
        case EACCES, EPERM:
            .unreadable(
                "\(path): permission denied. Input devices belong to the 'input' group: add yourself with "
                    + "'sudo usermod -aG input $USER' and log in again, or run the server as a user who may read the device."
            )
        case ENOENT:
            .unreadable("\(path): no such file or device")
        default:
            .unreadable("\(path): cannot open: \(SystemCalls.describe(error))")
        }
    }
}

extension InputDeviceDescription {
    /// The device described by the header of the evemu recording at `path`
    /// (its `N:`, `B:`, `P:` and `A:` lines): how to give a stream of bare
    /// records the axis ranges of the device it came from.
    public static func evemuHeader(atPath path: String) throws(InputSourceError) -> InputDeviceDescription {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputDevices.openError(path: path, errno: errno) }
        defer { close(descriptor) }
        // Read up to the first event line, which ends the header: the rest
        // of a long recording is not needed.
        var parser = EvemuParser()
        reading: while true {
            switch SystemCalls.readChunk(descriptor, atMost: 64 * 1024) {
            case .success(let bytes) where bytes.isEmpty:
                _ = parser.finish()
                break reading
            case .success(let bytes):
                if !parser.parse(bytes).isEmpty { break reading }
            case .failure(let error):
                throw .unreadable("\(path): cannot read: \(SystemCalls.describe(error.code))")
            }
        }
        let description = parser.device(fallbackName: path)
        guard description.isKnown else { throw .unreadable("\(path): no evemu device header (N:, B:, A: lines) found") }
        return description
    }
}
