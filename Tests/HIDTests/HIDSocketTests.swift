import TestExpectations
import Testing
import HID
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@Suite struct HIDSocketTests {
    private let tap = HIDEvent.digitizer(DigitizerFrame(timestamp: 10, contacts: [
        DigitizerContact(identifier: 1, phase: .began, x: 100, y: 200),
    ]))
    private let key = HIDEvent.button(ButtonEvent(timestamp: 11, usagePage: 0x07, usage: 0x04, isDown: true))

    private func drain(_ decoder: inout HIDPacketDecoder) -> [Result<HIDEvent, HIDDecodingError>] {
        var results: [Result<HIDEvent, HIDDecodingError>] = []
        while let result = decoder.next() { results.append(result) }
        return results
    }

    @Test func sentBytesArriveAtTheReceiver() throws {
        let (receiver, sender) = try HIDSocket.makePair()
        try sender.send([1, 2, 3, 4, 5])
        var decoder = HIDPacketDecoder()
        try expectEqual(receiver.receiveAvailable(into: &decoder), 5)
        expectEqual(decoder.bufferedByteCount, 5)
        #expect(decoder.next() == nil)  // not a whole packet yet
    }

    /// A process the application starts must not hold its input channel open.
    @Test func bothEndsAreClosedOnExec() throws {
        let (receiver, sender) = try HIDSocket.makePair()
        expectEqual(fcntl(receiver.fileDescriptor, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC)
        expectEqual(fcntl(sender.fileDescriptor, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC)
    }

    @Test func sentEventsDecodeInOrder() throws {
        let (receiver, sender) = try HIDSocket.makePair()
        try sender.send(tap)
        try sender.send(key)
        var decoder = HIDPacketDecoder()
        // 64 bytes for the one-contact frame, 32 for the button.
        try expectEqual(receiver.receiveAvailable(into: &decoder), 96)
        expectEqual(drain(&decoder), [.success(tap), .success(key)])
    }

    @Test func receivingFromAnEmptySocketReturnsZeroWithoutBlocking() throws {
        let (receiver, sender) = try HIDSocket.makePair()
        var decoder = HIDPacketDecoder()
        try expectEqual(receiver.receiveAvailable(into: &decoder), 0)
        try sender.send(key)
        try expectEqual(receiver.receiveAvailable(into: &decoder), 32)
        try expectEqual(receiver.receiveAvailable(into: &decoder), 0)
        expectEqual(drain(&decoder), [.success(key)])
    }

    @Test func closedSenderIsReportedAsPeerClosed() throws {
        let (receiver, sender) = try HIDSocket.makePair()
        sender.close()
        var decoder = HIDPacketDecoder()
        #expect(throws: HIDSocketError.peerClosed) { try receiver.receiveAvailable(into: &decoder) }
    }

    @Test func bytesSentBeforeClosingAreStillDelivered() throws {
        let (receiver, sender) = try HIDSocket.makePair()
        try sender.send(tap)
        sender.close()
        var decoder = HIDPacketDecoder()
        try expectEqual(receiver.receiveAvailable(into: &decoder), 64)
        expectEqual(drain(&decoder), [.success(tap)])
        #expect(throws: HIDSocketError.peerClosed) { try receiver.receiveAvailable(into: &decoder) }
    }

    @Test func closeTwiceIsHarmless() throws {
        let (receiver, sender) = try HIDSocket.makePair()
        sender.close()
        sender.close()
        receiver.close()
        receiver.close()
    }

    @Test func moreThanOneReadChunkArrivesWhole() throws {
        // 40 000 bytes is more than the receiver's 16 KiB read chunk, and less
        // than the kernel's socket buffer, so the blocking sender cannot stall.
        let (receiver, sender) = try HIDSocket.makePair()
        let events = (0..<625).map { i in
            HIDEvent.digitizer(DigitizerFrame(timestamp: Double(i), contacts: [
                DigitizerContact(identifier: UInt32(i), phase: .moved, x: Double(i), y: 1),
            ]))
        }
        var bytes: [UInt8] = []
        for event in events { HIDPacketEncoder().encode(event, into: &bytes) }
        expectEqual(bytes.count, 625 * 64)
        try sender.send(bytes)
        var decoder = HIDPacketDecoder()
        var total = 0
        for _ in 0..<100 where total < bytes.count {
            total += try receiver.receiveAvailable(into: &decoder)
        }
        expectEqual(total, 40_000)
        expectEqual(drain(&decoder), events.map { .success($0) })
    }

    @Test func sendingToAClosedReceiverThrowsInsteadOfKillingTheProcess() throws {
        // Without MSG_NOSIGNAL, write(2) to a socket whose peer is gone raises
        // SIGPIPE, which terminates the whole process (this test run included).
        let (receiver, sender) = try HIDSocket.makePair()
        receiver.close()
        #expect(throws: HIDSocketError.system("send", EPIPE)) { try sender.send(key) }
        // The sender is still usable for reporting, and closing it is fine.
        sender.close()
    }

    @Test func aClosedSocketNeverTouchesItsOldDescriptorNumber() throws {
        let (oldReceiver, oldSender) = try HIDSocket.makePair()
        oldReceiver.close()
        oldSender.close()
        // The kernel hands out the lowest free numbers, so the new receiver
        // most likely reuses the old one's number (unless a test running in
        // parallel took it first, which the old socket must not touch either).
        let (receiver, sender) = try HIDSocket.makePair()
        try sender.send(key)
        var stolen = HIDPacketDecoder()
        #expect(throws: HIDSocketError.system("read", EBADF)) { try oldReceiver.receiveAvailable(into: &stolen) }
        #expect(throws: HIDSocketError.system("send", EBADF)) { try oldReceiver.send([1, 2, 3]) }
        expectEqual(stolen.bufferedByteCount, 0)
        var decoder = HIDPacketDecoder()
        try expectEqual(receiver.receiveAvailable(into: &decoder), 32)
        expectEqual(drain(&decoder), [.success(key)])
    }

    @Test func errorsDescribeThemselves() {
        #expect(HIDSocketError.peerClosed.description.contains("closed"))
        #expect(HIDSocketError.system("read", 9).description.hasPrefix("read failed: "))
    }
}
