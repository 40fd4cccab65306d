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
        var reader = HIDRecordingReader()
        var events: [HIDEvent] = []
        reader.read(bytes, into: &events)
        return (events, reader.finish())
    }

    static func littleEndianBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    fileprivate static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
}

/// Reads a recording as its bytes arrive, record by record, so that a file
/// of any size is played while it is read, holding no more than one record
/// that is not whole yet. It stops at the first damage, as
/// ``HIDRecording/decode(_:)`` (which is this reader given the whole file)
/// does, and reports it with the same record number and byte offset.
public struct HIDRecordingReader: Sendable {
    /// The bytes of the header or of the record not yet whole.
    private var pending: [UInt8] = []
    /// Where `pending` starts in the file.
    private var offset = 0
    private var hasReadHeader = false
    /// Records read so far.
    public private(set) var recordCount = 0
    /// The damage that stopped the reader (or, after ``finish()``, the
    /// file's end inside a record); nil while all is well.
    public private(set) var error: HIDRecordingError?

    public init() {}

    /// Reads the next bytes of the file; appends the events of the records
    /// they complete to `events`. After damage, reads nothing more.
    public mutating func read(_ bytes: some Collection<UInt8>, into events: inout [HIDEvent]) {
        guard error == nil else { return }
        pending.append(contentsOf: bytes)
        if !hasReadHeader {
            guard readHeader() else { return }
        }
        var start = 0
        while error == nil, pending.count - start >= HIDRecording.recordPrefixSize {
            let length = Int(HIDRecording.readUInt32(pending, at: start))
            guard length <= HIDRecording.maximumRecordSize else {
                error = .badRecordLength(record: recordCount, offset: offset + start, length: length)
                break
            }
            let payloadStart = start + HIDRecording.recordPrefixSize
            guard pending.count - payloadStart >= length else { break }
            let payload = pending[payloadStart..<(payloadStart + length)]
            guard CRC32.checksum(payload) == HIDRecording.readUInt32(pending, at: start + 4) else {
                error = .checksumMismatch(record: recordCount, offset: offset + start)
                break
            }
            var decoder = HIDPacketDecoder()
            decoder.append(payload)
            switch decoder.next() {
            case .success(let event)? where decoder.bufferedByteCount == 0:
                events.append(event)
            case .failure(let decodingError)?:
                error = .undecodable(record: recordCount, offset: offset + start, decodingError)
            default:
                error = .undecodable(record: recordCount, offset: offset + start, .badPayloadLength(kind: 0, length: length))
            }
            guard error == nil else { break }
            start = payloadStart + length
            recordCount += 1
        }
        if error != nil {
            pending = []
        } else if start > 0 {
            pending.removeFirst(start)
            offset += start
        }
    }

    /// The file ended: the damage that stopped the reader, the header or a
    /// record cut short, or nil when the file ended where a record did.
    public mutating func finish() -> HIDRecordingError? {
        guard error == nil else { return error }
        if !hasReadHeader {
            error = pending.isEmpty ? .notARecording : .truncatedHeader(size: pending.count)
        } else if !pending.isEmpty {
            let needed = pending.count < HIDRecording.recordPrefixSize
                ? HIDRecording.recordPrefixSize
                : HIDRecording.recordPrefixSize + Int(HIDRecording.readUInt32(pending, at: 0))
            error = .truncated(record: recordCount, offset: offset, needed: needed, available: pending.count)
        }
        pending = []
        return error
    }

    /// Checks the header once its bytes have come; false while they have
    /// not or when it is bad (then `error` says how).
    private mutating func readHeader() -> Bool {
        let magic = HIDRecording.magic
        guard magic.starts(with: pending.prefix(magic.count)) else {
            error = .notARecording
            return false
        }
        guard pending.count >= HIDRecording.headerSize else { return false }
        let version = UInt16(pending[8]) | UInt16(pending[9]) << 8
        if CRC32.checksum(pending[0..<12]) != HIDRecording.readUInt32(pending, at: 12) {
            error = .headerChecksumMismatch
        } else if version != HIDRecording.version {
            error = .unsupportedVersion(version)
        }
        guard error == nil else { return false }
        hasReadHeader = true
        pending.removeFirst(HIDRecording.headerSize)
        offset = HIDRecording.headerSize
        return true
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
