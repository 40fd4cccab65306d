// Fuzz target: one datagram through the event server's message parser, as
// a client (or a hostile peer) sends it.
//
// Checked beyond not crashing: a message that reads is read back the same
// after writing it again (nothing the parser accepts is lost or changed on
// the way), its text is UTF-8 of the protocol's bounded length, and the
// HID packet inside an event message decodes to an event or an error, never
// a trap. The in-place reader of event messages (what applications use)
// agrees with the whole reader on every input. Inspector messages (requests,
// commands, reports, statuses, frames) that do not read fail as inspector
// errors, which the server takes as that message's problem alone; a report
// that reads carries at most one message's worth of text.
import HID

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let inPlace = Result { () throws(ServerProtocolError) in try ServerMessage.decodeEvent(bytes) }
    let message: ServerMessage
    do {
        message = try ServerMessage(decoding: bytes)
    } catch {
        _ = error.description
        let isInspectorType = size >= 5 && [0x07, 0x08, 0x8B, 0x8C, 0x8D].contains(bytes[4])
        if case .badInspectorMessage = error {
            precondition(isInspectorType, "an inspector error for a message of type \(bytes[4])")
        } else if isInspectorType, size >= 8, bytes[0..<4].elementsEqual(ServerProtocol.magic), bytes[5] == 0, bytes[6] == 0, bytes[7] == 0 {
            fatalError("an inspector message refused with another error than an inspector one: \(error)")
        }
        if case .success(let parts?) = inPlace { fatalError("an event read in place that the whole reader refuses (\(error)): \(parts.sequence)") }
        return 0
    }
    switch (message, inPlace) {
    case (.event(let envelope), .success(let parts?)):
        precondition(parts.sequence == envelope.sequence && parts.readTime == envelope.readTime && parts.sendTime == envelope.sendTime
            && Array(parts.packet) == envelope.packet,
            "the in-place reader read another event than the whole reader")
    case (.event, _): fatalError("an event the in-place reader did not read")
    case (_, .success(nil)): break
    default: fatalError("a \(message) the in-place reader took for an event or refused")
    }
    let again: ServerMessage
    do {
        again = try ServerMessage(decoding: message.encoded())
    } catch {
        fatalError("a message that read does not read back after writing: \(error)")
    }
    precondition(again == message, "a message changed on its way back: \(message) became \(again)")
    switch message {
    case .hello(let hello):
        precondition(hello.name.utf8.count <= ServerProtocol.maximumNameLength)
    case .event(let envelope):
        var decoder = HIDPacketDecoder()
        decoder.append(envelope.packet)
        while let result = decoder.next() {
            if case .failure(let error) = result { _ = error.description }
        }
    case .controlReply(.applications(let rows)):
        precondition(rows.allSatisfy { $0.name.utf8.count <= ServerProtocol.maximumNameLength })
    case .inspectorReport(let report):
        precondition(report.bytes.count <= ServerProtocol.maximumInspectorReportPart)
    case .inspectRequest(.attach(let name)), .inspectorStatus(.attached(_, _, let name)):
        precondition(name.utf8.count <= ServerProtocol.maximumNameLength)
    default:
        break
    }
    return 0
}
