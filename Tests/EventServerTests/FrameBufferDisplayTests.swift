import Glibc
import TestExpectations
import Testing
import EventServer
import HID

/// The frame buffer output: the layouts devices report, and the device
/// itself where there is none.
struct FrameBufferDisplayTests {
    static let bgra8888 = (
        red: FrameBufferLayout.BitField(offset: 16, length: 8), green: FrameBufferLayout.BitField(offset: 8, length: 8),
        blue: FrameBufferLayout.BitField(offset: 0, length: 8)
    )

    @Test func aMissingDeviceIsAClearError() {
        let path = "/tmp/openuikit-no-such-fb-\(getpid())"
        #expect(throws: DisplayError.frameBufferUnavailable(path: path, reason: "No such file or directory")) {
            try FrameBufferDisplay(path: path, screen: .standard)
        }
        let message = DisplayError.frameBufferUnavailable(path: path, reason: "No such file or directory").description
        #expect(message.contains("--display headless") && message.contains(path))
    }

    @Test func aFileThatIsNotAFrameBufferSaysSo() throws {
        #expect {
            try FrameBufferDisplay(path: "/dev/null", screen: .standard)
        } throws: { error in
            "\(error)".contains("not a frame buffer device")
        }
    }

    @Test func aFrameIsFittedCentredAndWrittenWithTheDevicesStrideAndFormat() throws {
        // A 16-bit 8 x 4 device with 4 bytes of padding per line, panned one line down.
        let layout = try FrameBufferLayout(
            visibleWidth: 8, visibleHeight: 4, yOffset: 1, bitsPerPixel: 16,
            red: .init(offset: 11, length: 5), green: .init(offset: 5, length: 6), blue: .init(offset: 0, length: 5),
            lineLength: 20, memoryLength: 20 * 5
        )
        expectEqual(layout.format, .rgb565)
        // A 2 x 2 frame becomes 4 x 4 in the middle: two black columns each side.
        #expect(layout.placement(forFrameWidth: 2, height: 2) == (2, 0, 4, 4))
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]
        var memory = [UInt8](repeating: 0, count: 100)
        pixels.withUnsafeBytes { source in
            memory.withUnsafeMutableBytes { destination in
                layout.write(DisplayFrame(pixels: source.baseAddress!, width: 2, height: 2, stride: 8), damage: [.init(x: 0, y: 0, width: 2, height: 2)], into: destination.baseAddress!)
            }
        }
        func pixel(_ x: Int, _ y: Int) -> UInt16 {
            let offset = (y + 1) * 20 + x * 2
            return UInt16(memory[offset]) | UInt16(memory[offset + 1]) << 8
        }
        expectEqual((0..<4).map { pixel($0 + 2, 0) }, [0xF800, 0xF800, 0x07E0, 0x07E0])
        expectEqual((0..<4).map { pixel($0 + 2, 3) }, [0x001F, 0x001F, 0xFFFF, 0xFFFF])
        #expect(pixel(0, 0) == 0 && pixel(7, 3) == 0, "the sides stay black")
        #expect(memory[0..<20].allSatisfy { $0 == 0 }, "the line above the panned area is untouched")
        #expect(memory[16..<20].allSatisfy { $0 == 0 } && memory[36..<40].allSatisfy { $0 == 0 }, "line padding untouched")
    }

    /// A flung list on the frame buffer: each frame's scroll moves the
    /// device's rows where it moves whole pixels of the device (an even
    /// number of rows in a device half the frame's size; any number at
    /// the frame's size), and the memory after every frame is what
    /// writing the frame whole makes: a scroll with other damage, up and
    /// down, two scrolls in one frame, padding and panning untouched.
    @Test(arguments: [(40, 30, 16), (80, 60, 32)])
    func aScrolledListMovesTheDevicesRowsAndEveryFrameIsTheFrameWrittenWhole(width: Int, height: Int, bitsPerPixel: Int) throws {
        let channels = bitsPerPixel == 16
            ? (red: FrameBufferLayout.BitField(offset: 11, length: 5), green: FrameBufferLayout.BitField(offset: 5, length: 6), blue: FrameBufferLayout.BitField(offset: 0, length: 5))
            : Self.bgra8888
        // Lines padded by 12 bytes, the visible area panned two lines down.
        let lineLength = width * bitsPerPixel / 8 + 12
        let layout = try FrameBufferLayout(
            visibleWidth: width, visibleHeight: height, yOffset: 2, bitsPerPixel: bitsPerPixel,
            red: channels.red, green: channels.green, blue: channels.blue, lineLength: lineLength, memoryLength: lineLength * (height + 3))
        var list = ScrolledList(width: 80, height: 60, rows: 10..<50)
        var device = [UInt8](repeating: 0xAB, count: layout.memoryLength)
        func write(_ frame: TestFrame, scrolls: [ServerMessage.FrameScroll], damage: [ServerMessage.PixelRect], into memory: inout [UInt8]) {
            frame.withFrame { frame in memory.withUnsafeMutableBytes { layout.write(frame, scrolls: scrolls, damage: damage, into: $0.baseAddress!) } }
        }
        write(list.frame, scrolls: [], damage: [.whole(80, 60)], into: &device)
        func step(_ commit: ServerMessage.FrameCommit, _ name: String) {
            let frame = list.frame
            write(frame, scrolls: commit.scrolls, damage: commit.damage, into: &device)
            var fresh = [UInt8](repeating: 0xAB, count: layout.memoryLength)
            write(frame, scrolls: [], damage: [.whole(80, 60)], into: &fresh)
            expectEqual(device, fresh, "\(name)")
        }
        step(list.scroll(by: 4), "up 4 rows")
        step(list.scroll(by: 3), "up 3 rows")
        step(list.scroll(by: -6, header: 140), "down 6 rows, and the header")
        var twice = list.scroll(by: 2)
        let second = list.scroll(by: 5)
        twice.scrolls += second.scrolls
        twice.damage = [.init(x: 0, y: 43, width: 80, height: 7)]
        step(twice, "two scrolls in one frame")
        // A carousel in the list scrolled sideways by 3 pixels (not whole
        // pixels of the half-size device: converted), then the list up by
        // 4 rows (moved): what the first left to convert is carried with
        // the second's move.
        let carousel = ServerMessage.FrameScroll(rect: .init(x: 10, y: 20, width: 40, height: 10), dx: 3, dy: 0)
        let up = ServerMessage.FrameScroll(rect: list.listRect, dx: 0, dy: -4)
        var next = list.frame
        for scroll in [carousel, up] {
            let before = next
            let rect = scroll.rect
            for y in Int(rect.y)..<Int(rect.y + rect.height) {
                for x in Int(rect.x)..<Int(rect.x + rect.width) {
                    let fromX = x - Int(scroll.dx), fromY = y - Int(scroll.dy)
                    guard (Int(rect.x)..<Int(rect.x + rect.width)).contains(fromX), (Int(rect.y)..<Int(rect.y + rect.height)).contains(fromY) else { continue }
                    for channel in 0..<4 { next.bytes[(y * 80 + x) * 4 + channel] = before.bytes[(fromY * 80 + fromX) * 4 + channel] }
                }
            }
        }
        // What they brought into view: the carousel's first 3 columns (4 rows up since), the list's last 4 rows.
        let brought: [ServerMessage.PixelRect] = [.init(x: 10, y: 16, width: 3, height: 10), .init(x: 0, y: 46, width: 80, height: 4)]
        for rect in brought {
            for y in Int(rect.y)..<Int(rect.y + rect.height) {
                for x in Int(rect.x)..<Int(rect.x + rect.width) { next.bytes[(y * 80 + x) * 4..<(y * 80 + x) * 4 + 3] = [250, UInt8(x), UInt8(y)] }
            }
        }
        write(next, scrolls: [carousel, up], damage: brought, into: &device)
        var fresh = [UInt8](repeating: 0xAB, count: layout.memoryLength)
        write(next, scrolls: [], damage: [.whole(80, 60)], into: &fresh)
        expectEqual(device, fresh, "a carousel's scroll, then the list's")
    }

    @Test func aTransparencyFieldIsFilledOpaque() throws {
        let layout = try FrameBufferLayout(
            visibleWidth: 1, visibleHeight: 1, bitsPerPixel: 32,
            red: Self.bgra8888.red, green: Self.bgra8888.green, blue: Self.bgra8888.blue, transparency: .init(offset: 24, length: 8),
            lineLength: 4, memoryLength: 4
        )
        var memory = [UInt8](repeating: 0, count: 4)
        let pixel: [UInt8] = [10, 20, 30, 255]
        pixel.withUnsafeBytes { source in
            memory.withUnsafeMutableBytes { layout.write(DisplayFrame(pixels: source.baseAddress!, width: 1, height: 1, stride: 4), damage: [.init(x: 0, y: 0, width: 1, height: 1)], into: $0.baseAddress!) }
        }
        expectEqual(memory, [30, 20, 10, 255])
    }

    @Test func layoutsThatCannotBeWrittenAreRefusedWithTheReason() {
        #expect(throws: FrameBufferLayout.Unsupported.self) {
            try FrameBufferLayout(visibleWidth: 8, visibleHeight: 8, bitsPerPixel: 8, red: .init(offset: 0, length: 8), green: .init(offset: 0, length: 8), blue: .init(offset: 0, length: 8), lineLength: 8, memoryLength: 64, visual: 3)
        }
        #expect {
            try FrameBufferLayout(visibleWidth: 8, visibleHeight: 8, bitsPerPixel: 32, red: Self.bgra8888.red, green: Self.bgra8888.green, blue: Self.bgra8888.blue, lineLength: 32, memoryLength: 100)
        } throws: { error in
            (error as? FrameBufferLayout.Unsupported)?.reason.contains("do not fit") == true
        }
    }
}
