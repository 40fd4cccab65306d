/// The binary form of a ``HIDEvent`` as it travels from the event server to an
/// application's input port.
///
/// Every packet is a 12-byte header followed by a payload, all little-endian:
///
/// | bytes | field                                   |
/// |-------|-----------------------------------------|
/// | 0–3   | magic `"HID1"`                          |
/// | 4     | version, currently 1                    |
/// | 5     | kind: 1 digitizer, 2 button, 3 motion   |
/// | 6–7   | reserved, zero                          |
/// | 8–11  | payload length in bytes                 |
///
/// Digitizer payload: timestamp (Float64), contact count (UInt16), two
/// reserved bytes, then per contact 40 bytes: identifier (UInt32), phase
/// (UInt8), kind (UInt8), two reserved bytes, x and y (Float64), major radius,
/// its tolerance, force and maximum force (Float32 each).
///
/// Button payload (20 bytes): timestamp (Float64), usage page and usage
/// (UInt16 each), down (UInt8), three reserved bytes, modifier flags (UInt32).
///
/// Motion payload (12 bytes): timestamp (Float64), kind, phase (UInt8 each),
/// two reserved bytes.
public enum HIDWireFormat {
    public static let magic: [UInt8] = [0x48, 0x49, 0x44, 0x31]  // "HID1"
    public static let version: UInt8 = 1
    public static let headerSize = 12
    /// A larger declared payload is taken as a corrupt header, not waited for.
    public static let maximumPayloadSize = 64 * 1024

    enum Kind: UInt8 {
        case digitizer = 1
        case button = 2
        case motion = 3
    }

    static let digitizerPrefixSize = 12
    static let contactSize = 40
    /// The most contacts one digitizer packet holds within
    /// ``maximumPayloadSize``: 1,638. A frame with more must be sent as
    /// several.
    public static let maximumContactsPerFrame = (maximumPayloadSize - digitizerPrefixSize) / contactSize
    static let buttonPayloadSize = 20
    static let motionPayloadSize = 12
}

/// Turns ``HIDEvent``s into wire-format bytes.
public struct HIDPacketEncoder: Sendable {
    public init() {}

    /// The packet for one event.
    public func encode(_ event: HIDEvent) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(event, into: &bytes)
        return bytes
    }

    /// How many bytes the packet for `event` takes.
    public func packetSize(of event: HIDEvent) -> Int {
        HIDWireFormat.headerSize + Self.kindAndPayloadSize(of: event).payloadSize
    }

    private static func kindAndPayloadSize(of event: HIDEvent) -> (kind: HIDWireFormat.Kind, payloadSize: Int) {
        switch event {
        case .digitizer(let frame):
            (.digitizer, HIDWireFormat.digitizerPrefixSize + frame.contacts.count * HIDWireFormat.contactSize)
        case .button: (.button, HIDWireFormat.buttonPayloadSize)
        case .motion: (.motion, HIDWireFormat.motionPayloadSize)
        }
    }

    /// Appends the packet for one event to `bytes`.
    ///
    /// - Precondition: a digitizer frame holds at most
    ///   ``HIDWireFormat/maximumContactsPerFrame`` contacts. More do not fit
    ///   one packet (nor, past 65,535, its count field): such a frame is sent
    ///   as several (the event server splits its own), never cut.
    public func encode(_ event: HIDEvent, into bytes: inout [UInt8]) {
        if case .digitizer(let frame) = event {
            precondition(
                frame.contacts.count <= HIDWireFormat.maximumContactsPerFrame,
                "a digitizer frame of \(frame.contacts.count) contacts does not fit one HID packet (at most \(HIDWireFormat.maximumContactsPerFrame)): send it as several"
            )
        }
        let (kind, payloadSize) = Self.kindAndPayloadSize(of: event)
        // The packet is sized first and then filled in place: one allocation
        // at most, and no per-field appends.
        let start = bytes.count
        let size = HIDWireFormat.headerSize + payloadSize
        if size <= PacketWriter.zeroes.count {
            bytes.append(contentsOf: PacketWriter.zeroes[..<size])  // a copy, where `repeatElement` goes byte by byte
        } else {
            bytes.append(contentsOf: repeatElement(0, count: size))
        }
        bytes.withUnsafeMutableBytes { raw in
            var out = PacketWriter(raw: raw, offset: start)
            for byte in HIDWireFormat.magic { out.put(byte) }
            out.put(HIDWireFormat.version)
            out.put(kind.rawValue)
            out.put(UInt16(0))
            out.put(UInt32(payloadSize))
            switch event {
            case .digitizer(let frame):
                out.put(frame.timestamp.bitPattern)
                out.put(UInt16(frame.contacts.count))
                out.put(UInt16(0))
                for contact in frame.contacts {
                    out.put(contact.identifier)
                    out.put(contact.phase.rawValue)
                    out.put(contact.kind.rawValue)
                    out.put(UInt16(0))
                    out.put(contact.x.bitPattern)
                    out.put(contact.y.bitPattern)
                    out.put(contact.majorRadius.bitPattern)
                    out.put(contact.majorRadiusTolerance.bitPattern)
                    out.put(contact.force.bitPattern)
                    out.put(contact.maximumPossibleForce.bitPattern)
                }
            case .button(let button):
                out.put(button.timestamp.bitPattern)
                out.put(button.usagePage)
                out.put(button.usage)
                out.put(UInt8(button.isDown ? 1 : 0))
                out.offset += 3
                out.put(button.modifierFlags)
            case .motion(let motion):
                out.put(motion.timestamp.bitPattern)
                out.put(motion.kind.rawValue)
                out.put(motion.phase.rawValue)
                out.put(UInt16(0))
            }
        }
    }
}

/// Writes little-endian fields into a buffer sized for them beforehand.
private struct PacketWriter {
    static let zeroes = [UInt8](repeating: 0, count: 1024)

    let raw: UnsafeMutableRawBufferPointer
    var offset: Int

    mutating func put<T: FixedWidthInteger>(_ value: T) {
        raw.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
    }
}

/// Why bytes on the wire could not be read as an event. Each error costs only
/// the bytes it names: the decoder carries on with the next packet.
public enum HIDDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Bytes that did not start a packet; the decoder skipped to the next magic.
    case garbage(skippedBytes: Int)
    case unsupportedVersion(UInt8)
    case unknownKind(UInt8)
    /// The payload's length does not fit its kind (or its contact count).
    case badPayloadLength(kind: UInt8, length: Int)
    case badField(String)

    public var description: String {
        switch self {
        case .garbage(let n): "skipped \(n) bytes that did not start a HID packet"
        case .unsupportedVersion(let v): "HID packet of unsupported version \(v)"
        case .unknownKind(let k): "HID packet of unknown kind \(k)"
        case .badPayloadLength(let k, let n): "HID packet of kind \(k) has a payload of \(n) bytes that does not fit it"
        case .badField(let what): "HID packet with a bad field: \(what)"
        }
    }
}

/// Reads ``HIDEvent``s out of a byte stream that may arrive in any slices.
///
/// A malformed packet yields one error and is skipped; the events after it
/// are read as usual. Bytes that do not start with the magic are skipped up
/// to the next occurrence of it.
public struct HIDPacketDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var readIndex = 0

    public init() {}

    /// Bytes received but not yet read as a packet.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Empties the buffer once every byte in it has been read, keeping its capacity.
    private mutating func dropConsumedBytes() {
        if readIndex > 0 && readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        }
    }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        dropConsumedBytes()
        buffer.append(contentsOf: bytes)
    }

    /// Takes the bytes of `bytes`, leaving it empty with its capacity: when
    /// nothing is buffered, the two arrays trade storage instead of copying.
    public mutating func take(_ bytes: inout [UInt8]) {
        if readIndex == buffer.count {
            swap(&buffer, &bytes)
            readIndex = 0
        } else {
            buffer.append(contentsOf: bytes)
        }
        // After a swap `bytes` holds the buffer's old storage, which the
        // last read usually emptied already: the library's removal is not free.
        if !bytes.isEmpty { bytes.removeAll(keepingCapacity: true) }
    }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        dropConsumedBytes()
        buffer.append(contentsOf: bytes)
    }

    /// The next event or error, or nil when the buffer holds no whole packet.
    public mutating func next() -> Result<HIDEvent, HIDDecodingError>? {
        var storage: [DigitizerContact] = []
        return next(reusing: &storage)
    }

    /// ``next()``, writing a digitizer frame's contacts into the storage of
    /// `contacts`, which the frame takes (leaving `contacts` empty). A
    /// reader that hands back each frame's contacts once it has handled the
    /// frame decodes frames without allocating.
    public mutating func next(reusing contacts: inout [DigitizerContact]) -> Result<HIDEvent, HIDDecodingError>? {
        let available = buffer.count - readIndex
        guard available >= HIDWireFormat.headerSize else { return nil }
        if !startsWithMagic(at: readIndex) {
            let skipped = skipToNextMagic()
            compactIfUseful()
            return .failure(.garbage(skippedBytes: skipped))
        }
        let version = buffer[readIndex + 4]
        let kindByte = buffer[readIndex + 5]
        let length = Int(readLittleEndian(UInt32.self, at: readIndex + 8))
        if length > HIDWireFormat.maximumPayloadSize {
            // A length this large means the header itself is corrupt: resynchronise.
            readIndex += 1
            let skipped = 1 + skipToNextMagic()
            compactIfUseful()
            return .failure(.garbage(skippedBytes: skipped))
        }
        guard available >= HIDWireFormat.headerSize + length else { return nil }
        let payload = readIndex + HIDWireFormat.headerSize
        defer { compactIfUseful() }
        readIndex = payload + length
        guard version == HIDWireFormat.version else { return .failure(.unsupportedVersion(version)) }
        guard let kind = HIDWireFormat.Kind(rawValue: kindByte) else { return .failure(.unknownKind(kindByte)) }
        guard buffer[payload - 6] == 0, buffer[payload - 5] == 0 else { return .failure(.badField("reserved header bytes that are not zero")) }
        switch kind {
        case .digitizer: return decodeDigitizer(at: payload, length: length, into: &contacts)
        case .button: return decodeButton(at: payload, length: length)
        case .motion: return decodeMotion(at: payload, length: length)
        }
    }

    private func decodeDigitizer(
        at offset: Int, length: Int, into storage: inout [DigitizerContact]
    ) -> Result<HIDEvent, HIDDecodingError> {
        guard length >= HIDWireFormat.digitizerPrefixSize else {
            return .failure(.badPayloadLength(kind: HIDWireFormat.Kind.digitizer.rawValue, length: length))
        }
        let timestamp = Double(bitPattern: readLittleEndian(UInt64.self, at: offset))
        let count = Int(readLittleEndian(UInt16.self, at: offset + 8))
        guard length == HIDWireFormat.digitizerPrefixSize + count * HIDWireFormat.contactSize else {
            return .failure(.badPayloadLength(kind: HIDWireFormat.Kind.digitizer.rawValue, length: length))
        }
        var contacts: [DigitizerContact] = []
        swap(&contacts, &storage)
        contacts.removeAllKeepingStorage()
        contacts.reserveCapacity(count)
        guard buffer[offset + 10] == 0, buffer[offset + 11] == 0 else {
            return .failure(.badField("reserved frame bytes that are not zero"))
        }
        var at = offset + HIDWireFormat.digitizerPrefixSize
        for _ in 0..<count {
            guard buffer[at + 6] == 0, buffer[at + 7] == 0 else { return .failure(.badField("reserved contact bytes that are not zero")) }
            guard let phase = DigitizerContact.Phase(rawValue: buffer[at + 4]) else {
                return .failure(.badField("contact phase \(buffer[at + 4])"))
            }
            guard let kind = DigitizerContact.Kind(rawValue: buffer[at + 5]) else {
                return .failure(.badField("contact kind \(buffer[at + 5])"))
            }
            contacts.append(DigitizerContact(
                identifier: readLittleEndian(UInt32.self, at: at),
                phase: phase,
                x: Double(bitPattern: readLittleEndian(UInt64.self, at: at + 8)),
                y: Double(bitPattern: readLittleEndian(UInt64.self, at: at + 16)),
                kind: kind,
                majorRadius: Float(bitPattern: readLittleEndian(UInt32.self, at: at + 24)),
                majorRadiusTolerance: Float(bitPattern: readLittleEndian(UInt32.self, at: at + 28)),
                force: Float(bitPattern: readLittleEndian(UInt32.self, at: at + 32)),
                maximumPossibleForce: Float(bitPattern: readLittleEndian(UInt32.self, at: at + 36))
            ))
            at += HIDWireFormat.contactSize
        }
        return .success(.digitizer(DigitizerFrame(timestamp: timestamp, contacts: contacts)))
    }

    private func decodeButton(at offset: Int, length: Int) -> Result<HIDEvent, HIDDecodingError> {
        guard length == HIDWireFormat.buttonPayloadSize else {
            return .failure(.badPayloadLength(kind: HIDWireFormat.Kind.button.rawValue, length: length))
        }
        let down = buffer[offset + 12]
        guard down <= 1 else { return .failure(.badField("button down flag \(down)")) }
        guard buffer[offset + 13] == 0, buffer[offset + 14] == 0, buffer[offset + 15] == 0 else {
            return .failure(.badField("reserved button bytes that are not zero"))
        }
        return .success(.button(ButtonEvent(
            timestamp: Double(bitPattern: readLittleEndian(UInt64.self, at: offset)),
            usagePage: readLittleEndian(UInt16.self, at: offset + 8),
            usage: readLittleEndian(UInt16.self, at: offset + 10),
            isDown: down == 1,
            modifierFlags: readLittleEndian(UInt32.self, at: offset + 16)
        )))
    }

    private func decodeMotion(at offset: Int, length: Int) -> Result<HIDEvent, HIDDecodingError> {
        guard length == HIDWireFormat.motionPayloadSize else {
            return .failure(.badPayloadLength(kind: HIDWireFormat.Kind.motion.rawValue, length: length))
        }
        guard let kind = MotionEvent.Kind(rawValue: buffer[offset + 8]) else {
            return .failure(.badField("motion kind \(buffer[offset + 8])"))
        }
        guard let phase = MotionEvent.Phase(rawValue: buffer[offset + 9]) else {
            return .failure(.badField("motion phase \(buffer[offset + 9])"))
        }
        guard buffer[offset + 10] == 0, buffer[offset + 11] == 0 else { return .failure(.badField("reserved motion bytes that are not zero")) }
        return .success(.motion(MotionEvent(
            timestamp: Double(bitPattern: readLittleEndian(UInt64.self, at: offset)), kind: kind, phase: phase
        )))
    }

    private func startsWithMagic(at index: Int) -> Bool {
        guard buffer.count - index >= 4 else { return false }
        return buffer[index] == 0x48 && buffer[index + 1] == 0x49 && buffer[index + 2] == 0x44 && buffer[index + 3] == 0x31
    }

    /// Advances to the next magic, or to the last three bytes (which may be
    /// the start of one still arriving). Returns how many bytes were skipped.
    private mutating func skipToNextMagic() -> Int {
        let start = readIndex
        while readIndex < buffer.count && !startsWithMagic(at: readIndex) {
            if buffer.count - readIndex < 4 && isPrefixOfMagic(from: readIndex) { break }
            readIndex += 1
        }
        return readIndex - start
    }

    private func isPrefixOfMagic(from index: Int) -> Bool {
        var i = 0
        while index + i < buffer.count {
            if buffer[index + i] != HIDWireFormat.magic[i] { return false }
            i += 1
        }
        return true
    }

    private mutating func compactIfUseful() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex > 4096 && readIndex * 2 > buffer.count {
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
    }

    private func readLittleEndian<T: FixedWidthInteger>(_: T.Type, at index: Int) -> T {
        buffer.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: index, as: T.self)) }
    }
}
