#if canImport(Glibc)
import Glibc
#endif
import HID

/// An application's side of the frame protocol, as the server keeps it:
/// the buffers it attached, whether it asked for a frame signal, and the
/// frame it committed that the next refresh shows.
///
/// A buffer is the application's to draw into except while the server
/// holds it: from its commit until the server shows the frame or a newer
/// commit replaces it; and, with an output that shows frames in place
/// (headless), while it is on the screen, until a newer frame replaces it
/// there.
final class ApplicationFrames {
    /// Buffers one application may attach: two are enough to draw one
    /// frame while the other waits to be shown; three when the screen holds
    /// one too and a frame comes after its refresh; four leave room for a
    /// resize.
    static let maximumBuffers = 4
    /// Commits one application may make between two refreshes before it is
    /// dropped: each replaces the last, so a few are harmless (a frame
    /// redrawn after a late change); hundreds are a client gone wrong.
    static let maximumCommitsPerRefresh = 32

    private(set) var buffers: [UInt32: SharedFrameBuffer] = [:]
    var wantsFrameSignal = false
    /// The frame the next refresh shows, and the buffer it is in.
    private(set) var pendingCommit: ServerMessage.FrameCommit?
    private var lastCommitIdentifier: UInt64 = 0
    /// The buffer on the screen, held while an output shows it in place.
    var bufferOnScreen: UInt32?
    var hasPendingCommit: Bool { pendingCommit != nil }
    var commitsSinceRefresh = 0

    /// Why an application's frame message is refused; the server drops it.
    enum Refusal: Error, CustomStringConvertible {
        case buffer(UInt32, SharedFrameBufferError)
        case noDescriptor(UInt32)
        case duplicateBuffer(UInt32)
        case tooManyBuffers
        case wrongSize(ServerMessage.BufferAttachment, width: Int, height: Int)
        case unknownBuffer(UInt32)
        case bufferHeld(UInt32)
        case commitOutOfOrder(UInt64, after: UInt64)
        case damageOutside(ServerMessage.PixelRect, width: Int, height: Int)
        case firstRowOutside(UInt32, buffer: UInt32, height: Int)
        case scrollOutside(ServerMessage.FrameScroll, width: Int, height: Int)
        case scrollMovesNothing(ServerMessage.FrameScroll)
        case commitFlood

        var description: String {
            switch self {
            case .buffer(let id, let error): "attached buffer \(id), which is refused: \(error)"
            case .noDescriptor(let id): "attached buffer \(id) without its memfd"
            case .duplicateBuffer(let id): "attached buffer \(id) twice"
            case .tooManyBuffers: "attached more than \(ApplicationFrames.maximumBuffers) buffers"
            case .wrongSize(let attachment, let width, let height):
                "attached buffer \(attachment.bufferIdentifier) of \(attachment.width) x \(attachment.height) pixels for a screen of \(width) x \(height)"
            case .unknownBuffer(let id): "committed buffer \(id), which it never attached"
            case .bufferHeld(let id): "committed buffer \(id) while the server still holds it"
            case .commitOutOfOrder(let id, let last): "committed frame \(id) after frame \(last): commit identifiers must increase"
            case .damageOutside(let rect, let width, let height):
                "committed damage (\(rect.x), \(rect.y), \(rect.width) x \(rect.height)) outside its \(width) x \(height) buffer"
            case .firstRowOutside(let row, let id, let height):
                "committed buffer \(id) with its first row at row \(row), outside its \(height) rows"
            case .scrollOutside(let scroll, let width, let height):
                "committed a scroll of (\(scroll.rect.x), \(scroll.rect.y), \(scroll.rect.width) x \(scroll.rect.height)) outside its \(width) x \(height) buffer"
            case .scrollMovesNothing(let scroll):
                "committed a scroll by (\(scroll.dx), \(scroll.dy)) of (\(scroll.rect.x), \(scroll.rect.y), \(scroll.rect.width) x \(scroll.rect.height)), which moves no pixel within it"
            case .commitFlood: "committed more than \(ApplicationFrames.maximumCommitsPerRefresh) frames between two refreshes"
            }
        }
    }

    /// Maps an attached buffer, which must be a screen's size.
    func attach(_ attachment: ServerMessage.BufferAttachment, descriptor: Int32?, screenWidth: Int, screenHeight: Int) throws(Refusal) {
        let id = attachment.bufferIdentifier
        guard let descriptor else { throw .noDescriptor(id) }
        guard buffers[id] == nil else { _ = close(descriptor); throw .duplicateBuffer(id) }
        guard buffers.count < Self.maximumBuffers else { _ = close(descriptor); throw .tooManyBuffers }
        guard Int(attachment.width) == screenWidth, Int(attachment.height) == screenHeight else {
            _ = close(descriptor)
            throw .wrongSize(attachment, width: screenWidth, height: screenHeight)
        }
        do {
            buffers[id] = try SharedFrameBuffer(receiving: attachment, descriptor: descriptor)
        } catch {
            throw .buffer(id, error)
        }
    }

    /// Takes a commit; returns the commit it replaces, which is discarded
    /// (its damage is shown with the new one).
    func commit(_ commit: ServerMessage.FrameCommit) throws(Refusal) -> ServerMessage.FrameCommit? {
        guard let buffer = buffers[commit.bufferIdentifier] else { throw .unknownBuffer(commit.bufferIdentifier) }
        guard pendingCommit?.bufferIdentifier != commit.bufferIdentifier, bufferOnScreen != commit.bufferIdentifier else {
            throw .bufferHeld(commit.bufferIdentifier)
        }
        guard commit.firstRow < buffer.height else {
            throw .firstRowOutside(commit.firstRow, buffer: commit.bufferIdentifier, height: buffer.height)
        }
        guard commit.commitIdentifier > lastCommitIdentifier else { throw .commitOutOfOrder(commit.commitIdentifier, after: lastCommitIdentifier) }
        for rect in commit.damage {
            guard UInt64(rect.x) + UInt64(rect.width) <= UInt64(buffer.width),
                  UInt64(rect.y) + UInt64(rect.height) <= UInt64(buffer.height) else {
                throw .damageOutside(rect, width: buffer.width, height: buffer.height)
            }
        }
        for scroll in commit.scrolls {
            guard UInt64(scroll.rect.x) + UInt64(scroll.rect.width) <= UInt64(buffer.width),
                  UInt64(scroll.rect.y) + UInt64(scroll.rect.height) <= UInt64(buffer.height) else {
                throw .scrollOutside(scroll, width: buffer.width, height: buffer.height)
            }
            // Some pixel must land inside the rectangle: an output works
            // out where each moved one lands.
            guard scroll.dx != 0 || scroll.dy != 0, scroll.dx.magnitude < scroll.rect.width, scroll.dy.magnitude < scroll.rect.height else {
                throw .scrollMovesNothing(scroll)
            }
        }
        commitsSinceRefresh += 1
        guard commitsSinceRefresh <= Self.maximumCommitsPerRefresh else { throw .commitFlood }
        lastCommitIdentifier = commit.commitIdentifier
        let replaced = pendingCommit
        pendingCommit = replaced.map { Self.combining($0, then: commit) } ?? commit
        return replaced
    }

    /// What the screen lacks when `commit` replaces `replaced`, never shown:
    /// the changes of both, from the newer buffer, a whole frame. Scrolls
    /// and damage are what changed since the application's previous
    /// commit, so the screen gets `replaced`'s scrolls, then `commit`'s,
    /// which carry `replaced`'s damage to where it landed, then `commit`'s
    /// damage. When that makes more scrolls than a commit carries,
    /// `replaced`'s become damage (all they moved).
    static func combining(_ replaced: ServerMessage.FrameCommit, then commit: ServerMessage.FrameCommit) -> ServerMessage.FrameCommit {
        var combined = commit
        var damage = replaced.damage
        var scrolls = replaced.scrolls
        if scrolls.count + commit.scrolls.count > ServerProtocol.maximumScrolls {
            damage += scrolls.compactMap { PixelMove($0)?.destination }
            scrolls = []
        }
        for scroll in commit.scrolls { PixelMove(scroll)?.carry(&damage) }
        damage += commit.damage
        // Commits pile up only when an application outruns the refresh
        // (at most 32 between two): bounded, they become one rectangle.
        if damage.count > ServerProtocol.maximumDamageRects, let first = damage.first {
            damage = [damage.dropFirst().reduce(first) { $0.union($1) }]
        }
        combined.scrolls = scrolls + commit.scrolls
        combined.damage = damage
        return combined
    }

    /// Takes the pending commit and its buffer, to be shown.
    func takePendingCommit() -> (ServerMessage.FrameCommit, SharedFrameBuffer)? {
        guard let commit = pendingCommit, let buffer = buffers[commit.bufferIdentifier] else { return nil }
        pendingCommit = nil
        return (commit, buffer)
    }
}
