#if canImport(Glibc)
import Glibc
#endif
import CSharedMemory
import HID
import TestExpectations
import Testing

/// Frame buffers an application shares with the server: made, sealed, sent
/// over the socket with their descriptor, and checked before the server maps them.
@Suite struct SharedFrameBufferTests {
    /// How many of this process's descriptors refer to the file `descriptor`
    /// refers to (other tests open and close descriptors meanwhile: only
    /// this file's count).
    func descriptorsOpen(onTheFileOf descriptor: Int32) -> Int {
        var target = stat()
        guard fstat(descriptor, &target) == 0, let directory = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let number = Int32(name) else { continue }
            var status = stat()
            if fstat(number, &status) == 0, status.st_ino == target.st_ino, status.st_dev == target.st_dev { count += 1 }
        }
        return count
    }

    /// Sends `descriptor` with an attach message over a fresh socket pair
    /// and returns what the other end received.
    func sendAndReceive(_ attachment: ServerMessage.BufferAttachment, descriptor: Int32) throws -> (ServerMessage, Int32?) {
        let (application, server) = try MessageSocket.makePair()
        try application.sendWaiting(ServerMessage.attachBuffer(attachment).encoded(), passing: descriptor)
        let received = try server.receiveWithDescriptor { bytes, descriptor in (try? ServerMessage(decoding: bytes), descriptor) }
        let (message, passed) = try #require(received)
        return (try #require(message), passed)
    }

    @Test func theServerSeesWhatTheApplicationDraws() throws {
        let buffer = try SharedFrameBuffer(width: 30, height: 20)
        expectEqual(buffer.stride, 120)
        // A pixel the application writes, in the last row.
        buffer.pixels.storeBytes(of: 0xAABB_CCDD as UInt32, toByteOffset: 19 * buffer.stride + 29 * 4, as: UInt32.self)

        let (message, descriptor) = try sendAndReceive(buffer.attachment(identifier: 5), descriptor: buffer.fileDescriptor)
        guard case .attachBuffer(let attachment) = message else { Issue.record("got \(message)"); return }
        expectEqual(attachment, .init(bufferIdentifier: 5, width: 30, height: 20, stride: 120))
        let passed = try #require(descriptor)
        #expect(passed != buffer.fileDescriptor)
        let mapped = try SharedFrameBuffer(receiving: attachment, descriptor: passed)
        expectEqual(mapped.pixels.load(fromByteOffset: 19 * mapped.stride + 29 * 4, as: UInt32.self), 0xAABB_CCDD)
        // Later drawing shows through the same memory.
        buffer.pixels.storeBytes(of: 0x0102_0304 as UInt32, as: UInt32.self)
        expectEqual(mapped.pixels.load(as: UInt32.self), 0x0102_0304)
    }

    /// How many of `buffer`'s pages exist (are in memory).
    func pagesMade(of buffer: SharedFrameBuffer) -> Int {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = buffer.stride * buffer.height
        var resident = [UInt8](repeating: 0, count: (length + pageSize - 1) / pageSize)
        guard mincore(buffer.pixels, length, &resident) == 0 else { return -1 }
        return resident.count { $0 & 1 != 0 }
    }

    /// A buffer an application makes ahead of the frame that needs it gets
    /// its pages on another thread (ScreenFrames), not when made: the pages
    /// come with `makePages()`, and what was drawn before stays. One made
    /// for a frame now has them all at once.
    @Test func aBufferMadeWithoutItsPagesGetsThemLaterAndKeepsItsPixels() throws {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let ahead = try SharedFrameBuffer(width: 300, height: 200, makingPages: false)
        let pages = (ahead.stride * ahead.height + pageSize - 1) / pageSize
        expectEqual(pagesMade(of: ahead), 0)
        ahead.pixels.storeBytes(of: 0xAABB_CCDD as UInt32, toByteOffset: 199 * ahead.stride + 299 * 4, as: UInt32.self)
        expectEqual(pagesMade(of: ahead), 1, "the page drawn in")
        ahead.makePages()
        expectEqual(pagesMade(of: ahead), pages)
        expectEqual(ahead.pixels.load(fromByteOffset: 199 * ahead.stride + 299 * 4, as: UInt32.self), 0xAABB_CCDD)
        expectEqual(ahead.pixels.load(as: UInt32.self), 0)
        expectEqual(pagesMade(of: try SharedFrameBuffer(width: 300, height: 200)), pages)
    }

    @Test func aSealedBufferCannotShrinkUnderTheServer() throws {
        let buffer = try SharedFrameBuffer(width: 8, height: 8)
        expectEqual(ftruncate(buffer.fileDescriptor, 16), -1)
        expectEqual(errno, EPERM)
    }

    @Test func aFileThatIsNoMemfdIsRefusedAndClosed() throws {
        var template = Array("/tmp/openuikit-buffer-XXXXXX".utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        #expect(file >= 0)
        unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        expectEqual(ftruncate(file, 4096), 0)
        let attachment = ServerMessage.BufferAttachment(bufferIdentifier: 1, width: 16, height: 16, stride: 64)
        let (_, passed) = try sendAndReceive(attachment, descriptor: file)
        close(file)
        let descriptor = try #require(passed)
        #expect(throws: SharedFrameBufferError.notMemfd) { _ = try SharedFrameBuffer(receiving: attachment, descriptor: descriptor) }
        expectEqual(fcntl(descriptor, F_GETFD), -1, "the refused descriptor is closed")
    }

    @Test func anUnsealedOrTooSmallBufferIsRefused() throws {
        let attachment = ServerMessage.BufferAttachment(bufferIdentifier: 1, width: 16, height: 16, stride: 64)
        // A memfd without the seal, as a careless client would make one.
        let raw = openuikit_memfd_create("unsealed")
        #expect(raw >= 0)
        expectEqual(ftruncate(raw, 64 * 16), 0)
        #expect(throws: SharedFrameBufferError.notSealed) { _ = try SharedFrameBuffer(receiving: attachment, descriptor: raw) }

        // A sealed buffer that holds fewer bytes than the size claimed.
        let small = try SharedFrameBuffer(width: 8, height: 8)
        let duplicate = dup(small.fileDescriptor)
        #expect(throws: SharedFrameBufferError.tooSmall(have: 256, need: 1024)) { _ = try SharedFrameBuffer(receiving: attachment, descriptor: duplicate) }
    }

    @Test func absurdSizesAreRefusedWithTheReason() throws {
        #expect(throws: SharedFrameBufferError.badSize("0 x 10 pixels (each side 1 to 16384)")) { _ = try SharedFrameBuffer(width: 0, height: 10) }
        #expect(throws: SharedFrameBufferError.self) { _ = try SharedFrameBuffer(width: 16384, height: 16384) }
        let buffer = try SharedFrameBuffer(width: 4, height: 4)
        for attachment in [
            ServerMessage.BufferAttachment(bufferIdentifier: 1, width: 4, height: 4, stride: 8),  // rows overlap
            ServerMessage.BufferAttachment(bufferIdentifier: 1, width: 4, height: 4, stride: 17),  // not whole pixels
            ServerMessage.BufferAttachment(bufferIdentifier: 1, width: .max, height: .max, stride: .max),
        ] {
            #expect(throws: SharedFrameBufferError.self) { _ = try SharedFrameBuffer(receiving: attachment, descriptor: dup(buffer.fileDescriptor)) }
        }
    }

    /// A descriptor sent with a message that is read without asking for
    /// descriptors is dropped by the kernel: nothing leaks.
    @Test func aDescriptorNobodyAskedForDoesNotLeak() throws {
        let buffer = try SharedFrameBuffer(width: 4, height: 4)
        let (application, server) = try MessageSocket.makePair()
        expectEqual(descriptorsOpen(onTheFileOf: buffer.fileDescriptor), 1)
        for _ in 0..<10 {
            try application.sendWaiting(ServerMessage.requestFrame.encoded(), passing: buffer.fileDescriptor)
            let message = try server.receiveMessage()
            expectEqual(message, .success(.requestFrame))
        }
        expectEqual(descriptorsOpen(onTheFileOf: buffer.fileDescriptor), 1)
        // And a message without one reads as having none.
        try application.sendWaiting(ServerMessage.requestFrame.encoded())
        let descriptor = try server.receiveWithDescriptor { _, descriptor in descriptor }
        expectEqual(descriptor, .some(nil))
    }
}
