#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxInput

/// The thin layer over the system calls the input sources make.
enum SystemCalls {
    /// Seconds of `CLOCK_MONOTONIC`, the clock input timestamps use.
    static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }

    /// What `errno` means, in words.
    static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }

    /// The most a source reads in one call, so one busy source cannot keep
    /// the server from the others.
    static let readBudget = 256 * 1024

    enum ReadOutcome {
        /// Bytes read; `wouldBlock` when the descriptor has nothing more now.
        case bytes([UInt8], endOfFile: Bool)
        case failed(Int32)
    }

    /// Reads what a non-blocking descriptor has, up to ``readBudget``.
    static func readAvailable(_ descriptor: Int32) -> ReadOutcome {
        var result: [UInt8] = []
        // Left uninitialized: zeroing 64 KiB for every read (a touch
        // screen's frame is a few dozen bytes) cost more than the read.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        defer { chunk.deallocate() }
        while result.count < readBudget {
            let count = read(descriptor, chunk.baseAddress, chunk.count)
            if count > 0 {
                result.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
                continue
            }
            if count == 0 { return .bytes(result, endOfFile: true) }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return .bytes(result, endOfFile: false) }
            return result.isEmpty ? .failed(error) : .bytes(result, endOfFile: false)
        }
        return .bytes(result, endOfFile: false)
    }

    /// Reads up to `count` bytes of a file, waiting for them if it must;
    /// empty at the file's end.
    static func readChunk(_ descriptor: Int32, atMost count: Int) -> Result<[UInt8], SystemError> {
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
            if read >= 0 {
                bytes.removeLast(count - read)
                return .success(bytes)
            }
            if errno != EINTR { return .failure(SystemError(code: errno)) }
        }
    }

    /// A non-blocking `CLOCK_MONOTONIC` timer descriptor, readable once armed and expired.
    static func makeTimer() throws(InputSourceError) -> Int32 {
        let descriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        guard descriptor >= 0 else { throw .unreadable("cannot make a timer: \(describe(errno))") }
        return descriptor
    }

    /// Arms `timer` to expire at the absolute monotonic time `time` (at
    /// once if it is past), or disarms it for nil.
    static func arm(_ timer: Int32, at time: Double?) {
        var spec = itimerspec()
        if let time {
            // A zero it_value disarms, so the earliest expiry is one nanosecond.
            let clamped = max(time, 1e-9)
            spec.it_value.tv_sec = Int(clamped.rounded(.down))
            spec.it_value.tv_nsec = max(Int((clamped - clamped.rounded(.down)) * 1_000_000_000), 1)
            if spec.it_value.tv_nsec >= 1_000_000_000 { spec.it_value.tv_nsec = 999_999_999 }
        }
        timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Takes the expirations of `timer` so that it stops being readable.
    static func drain(_ timer: Int32) {
        var expirations: UInt64 = 0
        _ = read(timer, &expirations, MemoryLayout<UInt64>.size)
    }

    /// The kind of file at `path`, or the error `stat` gave.
    static func fileType(at path: String) -> Result<mode_t, SystemError> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(SystemError(code: errno)) }
        return .success(info.st_mode & S_IFMT)
    }
}

/// An `errno` value.
struct SystemError: Error {
    var code: Int32
}
