#if canImport(Glibc)
import Glibc
#endif
import TestExpectations
import Testing
import EventServer
import HID

/// Writes `chunks` into the FIFO at `path` from another thread, pausing
/// `pause` seconds between chunks, then closes it.
private func startWriter(_ path: String, chunks: [[UInt8]], pause: Double) -> pthread_t {
    final class Job {
        let path: String
        let chunks: [[UInt8]]
        let pause: Double
        init(path: String, chunks: [[UInt8]], pause: Double) {
            self.path = path
            self.chunks = chunks
            self.pause = pause
        }
    }
    let job = Unmanaged.passRetained(Job(path: path, chunks: chunks, pause: pause)).toOpaque()
    var thread = pthread_t()
    pthread_create(&thread, nil, { argument in
        let job = Unmanaged<AnyObject>.fromOpaque(argument!).takeRetainedValue() as! Job
        // Close-on-exec: a process another test starts meanwhile must not keep the FIFO open.
        let descriptor = open(job.path, O_WRONLY | O_CLOEXEC)
        for chunk in job.chunks {
            _ = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            usleep(UInt32(job.pause * 1_000_000))
        }
        close(descriptor)
        return nil
    }, job)
    return thread
}

@Suite struct FIFOInputSourceTests {
    @Test func anEvemuRecordingWrittenIntoAFIFOIsReadAsItArrives() throws {
        let path = makeFIFO()
        defer { unlink(path) }
        let source = try InputDevices.open(path: path, screen: testScreen)
        #expect(source is FIFOInputSource)
        // Nothing written yet: the descriptor is not readable and a read finds nothing.
        #expect(!waitReadable(source.fileDescriptor, timeout: 0.05))
        #expect(try source.readEvents().isEmpty)

        // The recording, cut mid-line and written in pieces 20 ms apart.
        let text = readFile(recordingPath("two-finger-gesture.evemu"))
        let chunks = stride(from: 0, to: text.count, by: 97).map { Array(text[$0..<min($0 + 97, text.count)]) }
        let writer = startWriter(path, chunks: chunks, pause: 0.005)
        defer { pthread_join(writer, nil) }

        var events: [HIDEvent] = []
        var reads = 0
        while frames(events).count < 6 {
            guard waitReadable(source.fileDescriptor, timeout: 5) else { break }
            let batch = try source.readEvents()
            if !batch.isEmpty { reads += 1 }
            events += batch
        }
        expectEqual(frames(events).count, 6)
        expectEqual(frames(events).first, [Seen(1, .began, 100, 200)])
        expectEqual(frames(events).last, [Seen(2, .ended, 290, 600)])
        // Events came in several reads, as the writer wrote them, not all at the end.
        #expect(reads > 1)
        let times = events.map(\.timestamp)
        expectEqual(times, times.sorted())
    }

    @Test func inputEventRecordsWrittenIntoAFIFOAndANewWriterAfterTheFirst() throws {
        let path = makeFIFO()
        defer { unlink(path) }
        let source = try FIFOInputSource(path: path, screen: testScreen, device: touchScreen())
        let bytes = readFile(recordingPath("two-finger-gesture.events"))
        // A record cut across writes: 24-byte records written 17 bytes at a time.
        let chunks = stride(from: 0, to: bytes.count, by: 17).map { Array(bytes[$0..<min($0 + 17, bytes.count)]) }
        pthread_join(startWriter(path, chunks: chunks, pause: 0.001), nil)
        let first = drain(source, timeout: 5) { frames($0).count == 6 }
        expectEqual(frames(first.events).count, 6)
        expectEqual(frames(first.events).last, [Seen(2, .ended, 290, 600)])

        // The first writer closed; the FIFO waits for the next, which may speak evemu.
        pthread_join(startWriter(path, chunks: [readFile(recordingPath("pinch.evemu"))], pause: 0), nil)
        let second = drain(source, timeout: 5) { frames($0).count == 6 }
        expectEqual(frames(second.events).first, [Seen(3, .began, 100, 400), Seen(4, .began, 290, 400)])
        #expect(second.diagnostics.contains { $0.contains("the writer closed the FIFO") })
    }

    @Test func aWriterThatLeavesMidGestureHasItsContactsCancelled() throws {
        let path = makeFIFO()
        defer { unlink(path) }
        let source = try FIFOInputSource(path: path, screen: testScreen, device: touchScreen())
        let records = [
            abs(0, LinuxInput.ABS_MT_TRACKING_ID, 1), abs(0, LinuxInput.ABS_MT_POSITION_X, 1000), syn(0),
            abs(0.01, LinuxInput.ABS_MT_POSITION_X, 1200),
        ]
        pthread_join(startWriter(path, chunks: [records.flatMap(\.bytes)], pause: 0), nil)
        let result = drain(source, timeout: 5) { frames($0).count == 2 }
        // Cancelled where the unfinished scan last put it.
        expectEqual(frames(result.events), [[Seen(1, .began, 100, 0)], [Seen(1, .cancelled, 120, 0)]])
        #expect(result.diagnostics.contains { $0.contains("inside a scan") })
    }

    @Test func aWriterWhoseClockFallsBehindIsReanchored() throws {
        // The writer's clock runs far slower than the server's: 400 ms pass
        // and its records say 10 ms did. The second scan is stamped when it
        // is read, not 390 ms in the past (and further each time).
        let path = makeFIFO()
        defer { unlink(path) }
        let source = try FIFOInputSource(path: path, screen: testScreen, device: touchScreen())
        let writer = open(path, O_WRONLY | O_CLOEXEC)
        defer { close(writer) }
        func write(_ records: [LinuxInputEvent]) {
            let bytes = records.flatMap(\.bytes)
            _ = bytes.withUnsafeBytes { Glibc.write(writer, $0.baseAddress, $0.count) }
        }
        write([abs(0, LinuxInput.ABS_MT_TRACKING_ID, 1), abs(0, LinuxInput.ABS_MT_POSITION_X, 100), syn(0)])
        #expect(waitReadable(source.fileDescriptor))
        let first = try source.readEvents()
        usleep(400_000)
        write([abs(0.01, LinuxInput.ABS_MT_POSITION_X, 120), syn(0.01)])
        #expect(waitReadable(source.fileDescriptor))
        let readAt = monotonicSeconds()
        let second = try source.readEvents()
        let firstTime = try #require(first.last?.timestamp)
        let secondTime = try #require(second.last?.timestamp)
        #expect(secondTime > readAt - FIFOInputSource.maximumDrift)
        #expect(secondTime - firstTime > 0.3)
        #expect(source.takeDiagnostics().contains { $0.contains("fell behind the server's") && $0.contains("re-anchored") })
    }
}
