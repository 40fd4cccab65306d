#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxInput

/// Watches `/dev/input` for devices plugged in and out while the server
/// runs (inotify).
///
/// The server waits on ``fileDescriptor`` beside its sources and calls
/// ``readChanges()`` when it is readable. A device node usually appears
/// before udev has given it its permissions, so a path is reported as
/// added again when its attributes change: opening it may fail the first
/// time and succeed the second, and a server skips paths it already has
/// open. When the directory does not exist yet (a machine with no input
/// devices), its parent is watched until it appears.
public final class InputDeviceMonitor {
    public enum Change: Equatable, Sendable {
        /// An `event*` node appeared, or its permissions changed.
        case added(String)
        case removed(String)
    }

    public let directory: String
    public let fileDescriptor: Int32
    private var directoryWatch: Int32 = -1
    private var parentWatch: Int32 = -1
    private let parent: String
    private let directoryName: String

    /// Starts watching `directory`. Throws only if inotify itself fails.
    public init(directory: String = InputDevices.defaultDirectory) throws(InputSourceError) {
        self.directory = directory
        let slash = directory.lastIndex(of: "/")
        parent = slash.map { $0 == directory.startIndex ? "/" : String(directory[..<$0]) } ?? "."
        directoryName = slash.map { String(directory[directory.index(after: $0)...]) } ?? directory
        fileDescriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard fileDescriptor >= 0 else { throw .unreadable("cannot watch \(directory) for devices: \(SystemCalls.describe(errno))") }
        if !watchDirectory() { watchParent() }
    }

    deinit { close(fileDescriptor) }

    /// The devices there now (see ``InputDevices/devicePaths(in:)``).
    public func devicePaths() -> [String] { InputDevices.devicePaths(in: directory) }

    /// What changed since the last call, in order.
    public func readChanges() -> [Change] {
        var changes: [Change] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len, then len bytes of NUL-padded name.
            while offset + 16 <= count {
                let watch = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) }
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
                let end = min(offset + 16 + length, count)
                let name = String(decoding: buffer[(offset + 16)..<end].prefix { $0 != 0 }, as: UTF8.self)
                offset += 16 + length
                handle(watch: watch, mask: mask, name: name, into: &changes)
            }
        }
        return changes
    }

    private func handle(watch: Int32, mask: UInt32, name: String, into changes: inout [Change]) {
        if watch == parentWatch && parentWatch >= 0 {
            guard name == directoryName, mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 else { return }
            if watchDirectory() {
                inotify_rm_watch(fileDescriptor, parentWatch)
                parentWatch = -1
                changes += devicePaths().map(Change.added)
            }
            return
        }
        guard watch == directoryWatch else { return }
        if mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_IGNORED)) != 0 {
            directoryWatch = -1
            watchParent()
            return
        }
        guard InputDevices.eventNumber(name) != nil else { return }
        let path = "\(directory)/\(name)"
        if mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_ATTRIB)) != 0 { changes.append(.added(path)) }
        if mask & (UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) != 0 { changes.append(.removed(path)) }
    }

    private func watchDirectory() -> Bool {
        let events = UInt32(IN_CREATE) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE_SELF)
        directoryWatch = inotify_add_watch(fileDescriptor, directory, events)
        return directoryWatch >= 0
    }

    private func watchParent() {
        parentWatch = inotify_add_watch(fileDescriptor, parent, UInt32(IN_CREATE) | UInt32(IN_MOVED_TO))
        // The directory may have appeared between the two watches.
        if watchDirectory() {
            inotify_rm_watch(fileDescriptor, parentWatch)
            parentWatch = -1
        }
    }
}
