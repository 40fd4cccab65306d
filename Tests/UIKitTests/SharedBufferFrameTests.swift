#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing
@testable import UIKit

/// A connected application draws its frames straight into the shared
/// buffers it hands the event server (ScreenFrames): a scrolled list's
/// pixels are moved inside the buffer, and when the buffer drawn last is
/// still the server's, the frame moves to another one, which gets what it
/// missed as the frame is drawn. A list as wide as the screen turns each
/// buffer's ring of rows instead (the commit names the row the frame
/// starts at), and a buffer drawn again after frames in others is turned
/// by the scrolls it missed. Whatever the server shows, frame after
/// frame, must be the window drawn whole.
@MainActor
@Suite struct SharedBufferFrameTests {
    /// The server's side of the frame protocol, as a test holds it: the
    /// buffers attached (mapped as the server maps them) and a screen that
    /// each commit's damage is copied to, as the headless output does.
    final class FakeServer {
        let socket: MessageSocket
        let width: Int, height: Int
        var buffers: [UInt32: SharedFrameBuffer] = [:]
        var screen: [UInt8]
        var commits: [ServerMessage.FrameCommit] = []

        init(socket: MessageSocket, width: Int, height: Int) {
            self.socket = socket
            self.width = width
            self.height = height
            screen = [UInt8](repeating: 0, count: width * height * 4)
        }

        /// Reads what the application sent: buffers mapped, commits kept.
        func receive() throws {
            while let (message, descriptor) = try socket.receiveWithDescriptor({ bytes, descriptor in (try? ServerMessage(decoding: bytes), descriptor) }) {
                if case .attachBuffer(let attachment)? = message, let descriptor {
                    buffers[attachment.bufferIdentifier] = try SharedFrameBuffer(receiving: attachment, descriptor: descriptor)
                } else {
                    if let descriptor { close(descriptor) }
                    if case .commitFrame(let commit)? = message { commits.append(commit) }
                }
            }
        }

        /// Moves the screen's pixels by the commit's scrolls, as the X
        /// window and the frame buffer move their copy, then copies the
        /// commit's damage from its buffer to the screen, reading rows from
        /// the commit's first row on as the server does; its whole buffer
        /// when the screen shows it in place (headless).
        func show(_ commit: ServerMessage.FrameCommit, inPlace: Bool = false) throws {
            let buffer = try #require(buffers[commit.bufferIdentifier])
            let damage = inPlace ? [ServerMessage.PixelRect(x: 0, y: 0, width: UInt32(width), height: UInt32(height))] : commit.damage
            let width = width
            screen.withUnsafeMutableBytes { screen in
                for scroll in inPlace ? [] : commit.scrolls {
                    let rect = scroll.rect, dx = Int(scroll.dx), dy = Int(scroll.dy)
                    let left = max(Int(rect.x), Int(rect.x) + dx), right = min(Int(rect.x + rect.width), Int(rect.x + rect.width) + dx)
                    let top = max(Int(rect.y), Int(rect.y) + dy), bottom = min(Int(rect.y + rect.height), Int(rect.y + rect.height) + dy)
                    guard left < right, top < bottom else { continue }
                    let rows = dy > 0 ? Array((top..<bottom).reversed()) : Array(top..<bottom)
                    for y in rows {
                        (screen.baseAddress! + (y * width + left) * 4)
                            .copyMemory(from: screen.baseAddress! + ((y - dy) * width + left - dx) * 4, byteCount: (right - left) * 4)
                    }
                }
                for rect in damage {
                    for y in Int(rect.y)..<Int(rect.y + rect.height) {
                        let memoryRow = (y + Int(commit.firstRow)) % height
                        (screen.baseAddress! + (y * width + Int(rect.x)) * 4)
                            .copyMemory(from: buffer.pixels + memoryRow * buffer.stride + Int(rect.x) * 4, byteCount: Int(rect.width) * 4)
                    }
                }
            }
        }

        /// Pixels of the screen that differ from `reference` drawn whole.
        @MainActor func pixelsDiffering(from reference: LayerCompositor) -> Int {
            reference.renderFullFrame()
            return reference.withUnsafeBytes { full in
                (0..<(width * height)).count { full[$0 * 4..<$0 * 4 + 4].elementsEqual(screen[$0 * 4..<$0 * 4 + 4]) == false }
            }
        }
    }

    /// A connected application's window with a list, the server's end of
    /// its connection, and a twin of the window's views (outside any
    /// window) that its own compositor draws whole for reference. (A second
    /// compositor of the window's own layers would take their committed
    /// copy from the application's at every commit, and make it draw every
    /// frame whole: nothing would scroll by copy.)
    struct Scene {
        let serverEnd: MessageSocket
        let window: UIWindow
        let list: UIScrollView
        let rows: [UIView]
        let twin: (list: UIScrollView, rows: [UIView])
        let reference: LayerCompositor

        /// Scrolls both lists.
        @MainActor func scroll(by points: CGFloat) {
            list.contentOffset.y += points
            twin.list.contentOffset.y += points
        }

        /// Recolours row `index` of both lists.
        @MainActor func recolourRow(_ index: Int, _ color: UIColor) {
            rows[index].backgroundColor = color
            twin.rows[index].backgroundColor = color
        }
    }

    /// A list of 50 rows (half of them translucent, each with a round dot)
    /// under a translucent badge, on `root`'s white.
    func addList(to root: UIView, wide: Bool) -> (list: UIScrollView, rows: [UIView]) {
        root.backgroundColor = .white
        // No background of its own: it scrolls by copy over the white.
        let listWidth: CGFloat = wide ? 60 : 50
        let list = UIScrollView(frame: CGRect(x: wide ? 0 : 5, y: 10, width: listWidth, height: 70))
        list.contentSize = CGSize(width: listWidth, height: 1000)
        var rows: [UIView] = []
        for index in 0..<50 {
            let row = UIView(frame: CGRect(x: 0, y: CGFloat(index * 20), width: listWidth, height: 19))
            row.backgroundColor = UIColor(red: CGFloat(index % 5) / 4, green: 0.5, blue: CGFloat(index % 3) / 2, alpha: index % 2 == 0 ? 1 : 0.5)
            let dot = UIView(frame: CGRect(x: 4, y: 4.5, width: 10, height: 10))
            dot.backgroundColor = .black
            dot.layer.cornerRadius = 5
            row.addSubview(dot)
            list.addSubview(row)
            rows.append(row)
        }
        root.addSubview(list)
        // A translucent badge over the rows: drawn again where it is and where its copied pixels landed.
        let badge = UIView(frame: CGRect(x: 30, y: 40, width: 20, height: 20))
        badge.backgroundColor = UIColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        root.addSubview(badge)
        return (list, rows)
    }

    /// A connected application on a 60 × 90 screen at scale 2 whose window
    /// holds a list of 50 rows (half of them translucent, each with a
    /// round dot) under a translucent badge, drawn once. A `wide` list is
    /// as wide as the screen, with the window's white above and below it:
    /// its scrolls of whole pixels turn the buffers' rings.
    func connectedApplicationWithAList(wide: Bool = false) throws -> Scene {
        let application = UIApplication.shared
        application.resetForTesting()
        application.runLoop.useManualClock()  // nothing animates between a frame and its reference
        let serverEnd = try application.connectToFakeServer(screenWidth: 60, screenHeight: 90, scale: 2)
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 60, height: 90))
        let (list, rows) = addList(to: window, wide: wide)
        window.isHidden = false
        let twinRoot = UIView(frame: window.frame)
        let twin = addList(to: twinRoot, wide: wide)
        application.runLoop.runUntilIdle()
        let reference = try LayerCompositor(rootLayer: twinRoot.layer, pixelWidth: 120, pixelHeight: 180, scale: 2)
        return Scene(serverEnd: serverEnd, window: window, list: list, rows: rows, twin: twin, reference: reference)
    }

    /// Scrolls of every kind, in points at scale 2: down and up, by whole
    /// points, half points (a pixel) and quarter points (between pixels).
    static let mixedScrolls: [CGFloat] = [0, 1, 2, 0.5, 3, -1, -2.5, 4, 0.25, 1, -0.5, 6, 2, 0.75, 1, -3, 5, 0.5, 1, 2]

    /// Scrolls the list by a step's amount (and turns one row green at the
    /// tenth), then signals a frame; returns the frame's commit.
    func drawStep(_ step: Int, in scene: Scene, server: FakeServer, mixed: Bool = false) throws -> ServerMessage.FrameCommit {
        let application = UIApplication.shared
        if step > 0 { scene.scroll(by: mixed ? Self.mixedScrolls[step] : CGFloat(step % 4 + 1)) }
        if step == 9 { scene.recolourRow(3, .green) }
        application.runLoop.runUntilIdle()
        try scene.serverEnd.sendWaiting(ServerMessage.frameSignal(.init(
            sequence: UInt64(step + 1), time: monotonicSeconds(), refreshInterval: 1.0 / 120, startTime: 0)).encoded())
        application.runLoop.runUntilIdle()
        try server.receive()
        // Moving to another buffer or not, no pixel is copied twice.
        #expect(try #require(application.screenFrames).compositor.pixelsCopied <= 120 * 180, "step \(step)")
        let commit = try #require(server.commits.last, "step \(step): no frame")
        server.commits.removeAll()
        return commit
    }

    @Test(arguments: [false, true])
    func aScrolledListIsDrawnInTheServersBufferAndEveryFrameShownIsTheWindowDrawnWhole(wide: Bool) throws {
        let application = UIApplication.shared
        let scene = try connectedApplicationWithAList(wide: wide)
        let server = FakeServer(socket: scene.serverEnd, width: 120, height: 180)

        var kept: UInt32?
        var buffersDrawn: [UInt32] = []
        var firstRows: Set<UInt32> = []
        var scrolled = 0
        for step in 0..<20 {
            let commit = try drawStep(step, in: scene, server: server, mixed: wide)
            firstRows.insert(commit.firstRow)
            // The list's scroll is passed as one, and the damage is what
            // else changed (the rows brought into view, the badge): less
            // than the pixels the scroll moved, which it held before.
            if let scroll = commit.scrolls.first {
                scrolled += 1
                let damaged = commit.damage.reduce(0) { $0 + Int($1.width * $1.height) }
                let moved = (Int(scroll.rect.width) - Int(scroll.dx.magnitude)) * (Int(scroll.rect.height) - Int(scroll.dy.magnitude))
                #expect(damaged < moved, "step \(step): \(commit.damage) with \(commit.scrolls)")
            }
            try server.show(commit)
            buffersDrawn.append(commit.bufferIdentifier)
            // Given back at once, as the server does at the refresh that
            // shows it; but every fifth frame's buffer is kept while the
            // next is drawn, as when a frame comes after its refresh.
            if let kept { try scene.serverEnd.sendWaiting(ServerMessage.bufferReleased(kept).encoded()) }
            kept = step % 5 == 2 ? commit.bufferIdentifier : nil
            if kept == nil { try scene.serverEnd.sendWaiting(ServerMessage.bufferReleased(commit.bufferIdentifier).encoded()) }
            let differing = server.pixelsDiffering(from: scene.reference)
            expectEqual(differing, 0, "step \(step): \(differing) pixels differ from the window drawn whole")
        }
        // The frame stays in the buffer drawn last while it comes back in
        // time, and moves to the other when the server keeps it; two
        // buffers are enough.
        for step in 1..<20 {
            expectEqual((buffersDrawn[step] != buffersDrawn[step - 1]), (step % 5 == 3), "step \(step): buffers \(buffersDrawn)")
        }
        expectEqual(server.buffers.count, 2)
        #expect(scrolled >= 10, "frames that passed a scroll: \(scrolled) of 20")
        // Only a list as wide as the screen turns the ring.
        expectEqual(firstRows.count > 1, wide, "first rows committed: \(firstRows.sorted())")
        application.resetForTesting()
    }

    /// A server whose screen shows the buffer itself (headless) holds it
    /// until a newer frame replaces it there, as a Wayland compositor
    /// scanning out a client's buffer does: every frame moves to another
    /// buffer, and when a frame comes after its refresh (still pending
    /// while the next is drawn) both buffers are held at the next signal:
    /// the application draws in a third rather than skip the frame (made
    /// ahead, once two frames in a row moved), and needs no fourth.
    @Test(arguments: [false, true])
    func withTheScreenHoldingItsBufferALateFrameIsFollowedByOneInAThirdBuffer(wide: Bool) throws {
        let application = UIApplication.shared
        let scene = try connectedApplicationWithAList(wide: wide)
        let server = FakeServer(socket: scene.serverEnd, width: 120, height: 180)
        var onScreen: UInt32?
        var late: ServerMessage.FrameCommit?
        var copied: [Int] = []
        var firstRows: Set<UInt32> = []
        for step in 0..<20 {
            let commit = try drawStep(step, in: scene, server: server, mixed: wide)
            copied.append(try #require(application.screenFrames).compositor.pixelsCopied)
            firstRows.insert(commit.firstRow)
            #expect(commit.bufferIdentifier != onScreen && commit.bufferIdentifier != late?.bufferIdentifier,
                    "step \(step): drew into buffer \(commit.bufferIdentifier), which the server holds")
            // Two frames in a row moved (steps 1 and 2): the screen holds its
            // buffer, and the third is made after step 2's commit, ahead of
            // step 3, which needs it since step 2 is late.
            expectEqual(server.buffers.count, step < 2 ? 2 : 3, "step \(step): a third buffer once two frames in a row moved, and no fourth")
            if let replaced = late {
                try scene.serverEnd.sendWaiting(ServerMessage.frameDiscarded(replaced.commitIdentifier).encoded())
                try scene.serverEnd.sendWaiting(ServerMessage.bufferReleased(replaced.bufferIdentifier).encoded())
                late = nil
            }
            // Every fifth frame comes after its refresh: it waits, held,
            // while the next is drawn, and that one replaces it.
            if step % 5 == 2 {
                late = commit
                continue
            }
            try server.show(commit, inPlace: true)
            if let onScreen { try scene.serverEnd.sendWaiting(ServerMessage.bufferReleased(onScreen).encoded()) }
            onScreen = commit.bufferIdentifier
            let differing = server.pixelsDiffering(from: scene.reference)
            expectEqual(differing, 0, "step \(step): \(differing) pixels differ from the window drawn whole")
        }
        // Every frame moves to another buffer. A list inside the screen
        // copies its moved pixels from the buffer drawn last (13,200 or
        // more of the 21,600 in every frame); one as wide as the screen
        // turns the other buffer's ring instead, and copies less in most
        // frames: the rows scrolled into view and the badge, and the 40
        // rows above and below the list twice (lacked, and copied back
        // after the turn), which a list filling the screen does not have.
        let cheap = copied.dropFirst().filter { $0 < 13_000 }.count
        #expect(wide ? cheap >= 10 : cheap == 0, "pixels copied by each frame: \(copied)")
        expectEqual(firstRows.count > 1, wide, "first rows committed: \(firstRows.sorted())")
        application.resetForTesting()
    }
    /// A server that presents each frame and keeps the buffer it shows
    /// until a newer frame replaces it there (headless) is seen doing so at
    /// the second frame, which leaves the buffer on the screen: the third
    /// buffer is made then, ahead of any late frame (two moves in a row
    /// came too late when a fling's first frames were late, and the third
    /// buffer was made in a frame, its pages costing the main thread 9 ms).
    /// A server that gives each presented buffer back (a window, the frame
    /// buffer) never gets a third.
    @Test(arguments: [true, false])
    func aThirdBufferIsMadeOnceTheServerIsSeenShowingABufferItself(inPlace: Bool) throws {
        let application = UIApplication.shared
        let scene = try connectedApplicationWithAList()
        let server = FakeServer(socket: scene.serverEnd, width: 120, height: 180)
        var onScreen: UInt32?
        for step in 0..<4 {
            let commit = try drawStep(step, in: scene, server: server)
            expectEqual(server.buffers.count, inPlace && step >= 1 ? 3 : 2, "step \(step)")
            try server.show(commit, inPlace: inPlace)
            try scene.serverEnd.sendWaiting(ServerMessage.framePresented(.init(
                commitIdentifier: commit.commitIdentifier, sequence: UInt64(step + 1), time: monotonicSeconds(), refreshInterval: 1.0 / 120)).encoded())
            if inPlace {
                if let onScreen { try scene.serverEnd.sendWaiting(ServerMessage.bufferReleased(onScreen).encoded()) }
                onScreen = commit.bufferIdentifier
            } else {
                try scene.serverEnd.sendWaiting(ServerMessage.bufferReleased(commit.bufferIdentifier).encoded())
            }
            let differing = server.pixelsDiffering(from: scene.reference)
            expectEqual(differing, 0, "step \(step): \(differing) pixels differ from the window drawn whole")
        }
        application.resetForTesting()
    }
}
