/// A file of HID events with their timestamps: what `openuikit record`
/// writes and `openuikit replay` plays back.
///
/// All numbers are little-endian. The file starts with a 16-byte header:
///
/// | bytes | field                                         |
/// |-------|-----------------------------------------------|
/// | 0–7   | magic `"OUIKHIDR"`                            |
/// | 8–9   | version, currently 1                          |
/// | 10–11 | reserved, zero                                |
/// | 12–15 | CRC-32 of bytes 0–11                          |
///
/// Then one record per event, each an 8-byte prefix and a payload:
///
/// | bytes | field                                         |
/// |-------|-----------------------------------------------|
/// | 0–3   | payload length in bytes                       |
/// | 4–7   | CRC-32 of the payload                         |
/// | 8…    | the event as a ``HIDWireFormat`` packet, which carries its timestamp |
///
/// The checksums make damage visible where it is: a reader stops at the
/// first record that is cut short or does not match its checksum, reports
/// its number and byte offset, and keeps every record before it.
public enum HIDRecording {
    public static let magic: [UInt8] = Array("OUIKHIDR".utf8)
    public static let version: UInt16 = 1
    public static let headerSize = 16
    public static let recordPrefixSize = 8
    /// A larger declared record is taken as damage, not read.
    public static let maximumRecordSize = HIDWireFormat.headerSize + HIDWireFormat.maximumPayloadSize

    /// The file's header.
    public static func header() -> [UInt8] {
        var bytes = magic
        bytes += littleEndianBytes(version)
        bytes += [0, 0]
        bytes += littleEndianBytes(CRC32.checksum(bytes))
        return bytes
    }

    /// One event's record.
    public static func record(_ event: HIDEvent) -> [UInt8] {
        var bytes: [UInt8] = []
        appendRecord(event, to: &bytes)
        return bytes
    }

    /// Appends one event's record to `bytes`.
    public static func appendRecord(_ event: HIDEvent, to bytes: inout [UInt8]) {
        let payload = HIDPacketEncoder().encode(event)
        bytes += littleEndianBytes(UInt32(payload.count))
        bytes += littleEndianBytes(CRC32.checksum(payload))
        bytes += payload
    }

    /// A whole file holding `events`.
    public static func encode(_ events: [HIDEvent]) -> [UInt8] {
        var bytes = header()
        for event in events { appendRecord(event, to: &bytes) }
        return bytes
    }

    /// Reads a whole file: every event up to the first damage, and the
    /// damage if there is any.
    public static func decode(_ bytes: some Collection<UInt8>) -> (events: [HIDEvent], error: HIDRecordingError?) {
        let bytes = Array(bytes)
        guard bytes.count >= headerSize else {
            if !magic.starts(with: bytes.prefix(magic.count)) || bytes.isEmpty { return ([], .notARecording) }
            return ([], .truncatedHeader(size: bytes.count))
        }
        guard Array(bytes[0..<magic.count]) == magic else { return ([], .notARecording) }
        let storedHeaderChecksum = readUInt32(bytes, at: 12)
        guard CRC32.checksum(bytes[0..<12]) == storedHeaderChecksum else { return ([], .headerChecksumMismatch) }
        let version = UInt16(bytes[8]) | UInt16(bytes[9]) << 8
        guard version == Self.version else { return ([], .unsupportedVersion(version)) }

        var events: [HIDEvent] = []
        var offset = headerSize
        var index = 0
        while offset < bytes.count {
            guard bytes.count - offset >= recordPrefixSize else {
                return (events, .truncated(record: index, offset: offset, needed: recordPrefixSize, available: bytes.count - offset))
            }
            let length = Int(readUInt32(bytes, at: offset))
            guard length <= maximumRecordSize else {
                return (events, .badRecordLength(record: index, offset: offset, length: length))
            }
            let payloadStart = offset + recordPrefixSize
            guard bytes.count - payloadStart >= length else {
                return (events, .truncated(record: index, offset: offset, needed: recordPrefixSize + length, available: bytes.count - offset))
            }
            let payload = bytes[payloadStart..<(payloadStart + length)]
            guard CRC32.checksum(payload) == readUInt32(bytes, at: offset + 4) else {
                return (events, .checksumMismatch(record: index, offset: offset))
            }
            var decoder = HIDPacketDecoder()
            decoder.append(payload)
            switch decoder.next() {
            case .success(let event)? where decoder.bufferedByteCount == 0:
                events.append(event)
            case .failure(let error)?:
                return (events, .undecodable(record: index, offset: offset, error))
            default:
                return (events, .undecodable(record: index, offset: offset, .badPayloadLength(kind: 0, length: length)))
            }
            offset = payloadStart + length
            index += 1
        }
        return (events, nil)
    }

    static func littleEndianBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
}

/// Why a recording could not be read to its end. Records are numbered from
/// 0; offsets are bytes from the start of the file.
public enum HIDRecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not start with the recording magic.
    case notARecording
    case truncatedHeader(size: Int)
    case headerChecksumMismatch
    case unsupportedVersion(UInt16)
    /// The file ends inside a record.
    case truncated(record: Int, offset: Int, needed: Int, available: Int)
    /// A record's declared length is impossible: its prefix is damaged.
    case badRecordLength(record: Int, offset: Int, length: Int)
    /// A record's payload does not match its checksum.
    case checksumMismatch(record: Int, offset: Int)
    /// A record's checksum matched but its payload is not an event.
    case undecodable(record: Int, offset: Int, HIDDecodingError)

    public var description: String {
        switch self {
        case .notARecording:
            "not a HID recording (the file does not start with \"OUIKHIDR\")"
        case .truncatedHeader(let size):
            "the recording is cut short inside its header (\(size) of \(HIDRecording.headerSize) bytes)"
        case .headerChecksumMismatch:
            "the recording's header is damaged (checksum mismatch at byte 12)"
        case .unsupportedVersion(let version):
            "recording of unsupported version \(version) (this reader reads version \(HIDRecording.version))"
        case .truncated(let record, let offset, let needed, let available):
            "the recording is cut short in record \(record) at byte \(offset): it needs \(needed) bytes, \(available) remain; the \(record) records before it were read"
        case .badRecordLength(let record, let offset, let length):
            "record \(record) at byte \(offset) declares an impossible length of \(length) bytes; the \(record) records before it were read"
        case .checksumMismatch(let record, let offset):
            "record \(record) at byte \(offset) is damaged (checksum mismatch); the \(record) records before it were read"
        case .undecodable(let record, let offset, let error):
            "record \(record) at byte \(offset) is not a HID event (\(error)); the \(record) records before it were read"
        }
    }
}

/// CRC-32 as zlib and PNG compute it (reflected polynomial 0xEDB88320).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
