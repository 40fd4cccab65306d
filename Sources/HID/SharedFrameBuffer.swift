#if canImport(Glibc)
import Glibc
#endif
import CSharedMemory

/// A frame's pixels in memory that an application and the event server
/// share: an anonymous file (`memfd_create`) the application makes, sizes,
/// seals against shrinking and sends to the server once, over its socket.
///
/// The seal is what keeps the server safe: a client could otherwise shrink
/// the file under the server's mapping, and the server's next read of the
/// lost pages would fault. So the server maps a buffer only after checking
/// that it is a memfd, that it is sealed against shrinking, and that it is
/// large enough for the size the client claims (``init(receiving:descriptor:)``).
///
/// Pixels are 4 bytes each, RGBA, premultiplied, rows `stride` bytes apart,
/// as the compositor draws them.
public final class SharedFrameBuffer: @unchecked Sendable {
    // @unchecked: the mapping and the descriptor never change; the pixels
    // are written by one side while the other does not read them, which
    // the frame protocol's buffer release guarantees.
    public let fileDescriptor: Int32
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    /// The first pixel: writable for the application, read-only for the server.
    public let pixels: UnsafeMutableRawPointer
    private let mappedLength: Int

    /// Bytes per pixel (RGBA, 8 bits each).
    public static let bytesPerPixel = 4
    /// The largest side a buffer may have, in pixels: as the scene files'
    /// largest image, far beyond any screen.
    public static let maximumSide = 16384
    /// The most memory one buffer may claim: a 4K screen at scale 2 is 132 MB.
    public static let maximumByteCount = 256 << 20

    /// Makes a buffer of `width` × `height` pixels, for an application,
    /// with its pages (`makingPages`), or with none yet: ``makePages()``
    /// makes them later, on another thread.
    public init(width: Int, height: Int, makingPages: Bool = true) throws(SharedFrameBufferError) {
        try Self.checkSize(width: width, height: height, stride: width * Self.bytesPerPixel)
        let stride = width * Self.bytesPerPixel
        let length = stride * height
        let descriptor = openuikit_memfd_create("openuikit-frame")
        guard descriptor >= 0 else { throw .system("memfd_create", errno) }
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            let code = errno
            close(descriptor)
            throw .system("ftruncate", code)
        }
        guard openuikit_seal_against_shrinking(descriptor) == 0 else {
            let code = errno
            close(descriptor)
            throw .system("fcntl(F_ADD_SEALS)", code)
        }
        // Its pages are made now (MAP_POPULATE), not as the first frame
        // drawn in it touches them: fresh shared memory costs 10 to 34 ms
        // to write a 1170 × 2532 buffer for the first time on a 2-core VM,
        // against 1 ms once its pages exist, and a buffer made when a frame
        // needs it would make that frame miss its refresh.
        let flags = MAP_SHARED | (makingPages ? MAP_POPULATE : 0)
        guard let mapping = mmap(nil, length, PROT_READ | PROT_WRITE, flags, descriptor, 0), mapping != MAP_FAILED else {
            let code = errno
            close(descriptor)
            throw .system("mmap", code)
        }
        self.fileDescriptor = descriptor
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = mapping
        self.mappedLength = length
    }

    /// Makes the pages of a buffer made without them, writable, without
    /// changing what is in them (`MADV_POPULATE_WRITE`, Linux 5.14): on any
    /// thread, while another draws in the buffer. Making a 1170 × 2532
    /// buffer's pages took 9 ms of a flung list's main thread on a 2-core
    /// VM, and that frame missed its refresh; made on another thread, they
    /// cost the main thread nothing. On an older kernel nothing is made,
    /// and the pages are made as the first frame drawn in them touches them.
    public func makePages() {
        // MADV_POPULATE_WRITE (23), which the Glibc module leaves out.
        _ = madvise(pixels, mappedLength, 23)
    }

    /// Maps a buffer an application sent, for the server: refuses anything
    /// that is not a memfd sealed against shrinking and at least as large as
    /// `attachment` says. Takes ownership of `descriptor`, closing it on refusal.
    public init(receiving attachment: ServerMessage.BufferAttachment, descriptor: Int32) throws(SharedFrameBufferError) {
        do throws(SharedFrameBufferError) {
            let width = Int(attachment.width), height = Int(attachment.height), stride = Int(attachment.stride)
            try Self.checkSize(width: width, height: height, stride: stride)
            switch openuikit_is_sealed_against_shrinking(descriptor) {
            case 1: break
            case 0: throw SharedFrameBufferError.notSealed
            default: throw SharedFrameBufferError.notMemfd
            }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw SharedFrameBufferError.system("fstat", errno) }
            let length = stride * height
            guard Int(status.st_size) >= length else { throw SharedFrameBufferError.tooSmall(have: Int(status.st_size), need: length) }
            guard let mapping = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), mapping != MAP_FAILED else {
                throw SharedFrameBufferError.system("mmap", errno)
            }
            self.fileDescriptor = descriptor
            self.width = width
            self.height = height
            self.stride = stride
            self.pixels = mapping
            self.mappedLength = length
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit {
        munmap(pixels, mappedLength)
        close(fileDescriptor)
    }

    /// What the application tells the server about this buffer when it sends it.
    public func attachment(identifier: UInt32) -> ServerMessage.BufferAttachment {
        ServerMessage.BufferAttachment(
            bufferIdentifier: identifier, width: UInt32(width), height: UInt32(height), stride: UInt32(stride))
    }

    private static func checkSize(width: Int, height: Int, stride: Int) throws(SharedFrameBufferError) {
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
            throw .badSize("\(width) x \(height) pixels (each side 1 to \(maximumSide))")
        }
        guard stride >= width * bytesPerPixel, stride % bytesPerPixel == 0 else {
            throw .badSize("a stride of \(stride) bytes for rows of \(width) pixels")
        }
        guard stride.multipliedReportingOverflow(by: height).partialValue <= maximumByteCount else {
            throw .badSize("\(width) x \(height) pixels, stride \(stride): more than \(maximumByteCount >> 20) MB")
        }
    }
}

public enum SharedFrameBufferError: Error, Equatable, Sendable, CustomStringConvertible {
    case system(String, Int32)
    case badSize(String)
    /// The descriptor is not an anonymous memory file (a regular file, a pipe, a socket).
    case notMemfd
    /// A memfd that could still shrink under the server's mapping.
    case notSealed
    case tooSmall(have: Int, need: Int)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .badSize(let what): "a frame buffer of \(what) is refused"
        case .notMemfd: "the frame buffer is not a memfd (memfd_create)"
        case .notSealed: "the frame buffer is not sealed against shrinking (F_SEAL_SHRINK)"
        case .tooSmall(let have, let need): "the frame buffer holds \(have) bytes, fewer than the \(need) its size needs"
        }
    }
}
