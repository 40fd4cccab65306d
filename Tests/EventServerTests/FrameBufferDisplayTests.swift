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
