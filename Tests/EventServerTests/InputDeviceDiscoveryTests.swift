#if canImport(Glibc)
import Glibc
#endif
import TestExpectations
import Testing
@testable import EventServer

private func temporaryDirectory() -> String {
    var template = Array("/tmp/openuikit-devices-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}

@Suite struct InputDeviceDiscoveryTests {
    @Test func thisMachineHasNoInputDevicesAndDiscoveryFindsNothing() throws {
        // No /dev/input here: discovery finds nothing and the monitor waits for the directory.
        try #require(access(InputDevices.defaultDirectory, F_OK) != 0, "this machine has /dev/input; the test is for machines without it")
        let found = InputDevices.discover(screen: testScreen)
        #expect(found.sources.isEmpty)
        #expect(found.diagnostics.isEmpty)
        let monitor = try InputDeviceMonitor()
        #expect(monitor.devicePaths().isEmpty)
        #expect(monitor.readChanges().isEmpty)
    }

    @Test func devicesAreListedInNumberOrderAndOtherNamesPassedOver() {
        let directory = temporaryDirectory()
        for name in ["event10", "event2", "mouse0", "event", "eventX", "by-id"] {
            close(open("\(directory)/\(name)", O_CREAT | O_WRONLY, 0o600))
        }
        expectEqual(InputDevices.devicePaths(in: directory), ["\(directory)/event2", "\(directory)/event10"])
    }

    @Test func devicesPluggedInAndOutAreReported() throws {
        let directory = temporaryDirectory()
        let monitor = try InputDeviceMonitor(directory: directory)
        #expect(monitor.readChanges().isEmpty)
        mkfifo("\(directory)/event4", 0o600)
        close(open("\(directory)/js0", O_CREAT | O_WRONLY, 0o600))
        #expect(waitReadable(monitor.fileDescriptor, timeout: 2))
        expectEqual(monitor.readChanges(), [.added("\(directory)/event4")])
        // udev sets the permissions after the node appears: reported again, to be opened then.
        chmod("\(directory)/event4", 0o660)
        #expect(waitReadable(monitor.fileDescriptor, timeout: 2))
        expectEqual(monitor.readChanges(), [.added("\(directory)/event4")])
        unlink("\(directory)/event4")
        #expect(waitReadable(monitor.fileDescriptor, timeout: 2))
        expectEqual(monitor.readChanges(), [.removed("\(directory)/event4")])
    }

    @Test func aDirectoryThatAppearsLaterIsWatchedFromThen() throws {
        let parent = temporaryDirectory()
        let directory = "\(parent)/input"
        let monitor = try InputDeviceMonitor(directory: directory)
        #expect(monitor.devicePaths().isEmpty)
        // The directory comes with a device already in it, as when a first device is plugged in.
        mkdir("\(parent)/staging", 0o700)
        mkfifo("\(parent)/staging/event0", 0o600)
        rename("\(parent)/staging", directory)
        #expect(waitReadable(monitor.fileDescriptor, timeout: 2))
        expectEqual(monitor.readChanges(), [.added("\(directory)/event0")])
        mkfifo("\(directory)/event1", 0o600)
        #expect(waitReadable(monitor.fileDescriptor, timeout: 2))
        expectEqual(monitor.readChanges(), [.added("\(directory)/event1")])
    }

    @Test func discoveryOpensWhatItFindsAndReportsWhatItCannot() throws {
        let directory = temporaryDirectory()
        mkfifo("\(directory)/event0", 0o600)
        symlink("\(directory)/missing", "\(directory)/event1")
        let found = InputDevices.discover(in: directory, screen: testScreen)
        expectEqual(found.sources.map(\.name), ["\(directory)/event0"])
        expectEqual(found.diagnostics, ["\(directory)/event1: no such file or device"])
    }

    @Test func aPermissionErrorSaysWhatToDo() {
        let message = InputDevices.openError(path: "/dev/input/event3", errno: EACCES).description
        #expect(message.hasPrefix("/dev/input/event3: permission denied."))
        #expect(message.contains("sudo usermod -aG input $USER"))
    }
}

@Suite struct LinuxKeyUsageTests {
    @Test func lettersDigitsAndTheKeysUIKitNames() {
        // KEY_A 30, KEY_Z 44, KEY_Q 16, KEY_M 50: usages 0x04, 0x1D, 0x14, 0x10.
        #expect(LinuxKeyUsages.usage(forKey: 30)! == (0x07, 0x04))
        #expect(LinuxKeyUsages.usage(forKey: 44)! == (0x07, 0x1D))
        #expect(LinuxKeyUsages.usage(forKey: 16)! == (0x07, 0x14))
        #expect(LinuxKeyUsages.usage(forKey: 50)! == (0x07, 0x10))
        // KEY_1 2 … KEY_0 11: 0x1E … 0x27.
        expectEqual((2...11).map { LinuxKeyUsages.usage(forKey: $0)!.usage }, Array(0x1E...0x27))
        // KEY_ENTER, KEY_ESC, KEY_BACKSPACE, KEY_TAB, KEY_SPACE.
        expectEqual([28, 1, 14, 15, 57].map { LinuxKeyUsages.usage(forKey: $0)!.usage }, [0x28, 0x29, 0x2A, 0x2B, 0x2C])
        // KEY_RIGHT, KEY_LEFT, KEY_DOWN, KEY_UP: 0x4F … 0x52.
        expectEqual([106, 105, 108, 103].map { LinuxKeyUsages.usage(forKey: $0)!.usage }, [0x4F, 0x50, 0x51, 0x52])
        // Modifiers: KEY_LEFTCTRL, LEFTSHIFT, LEFTALT, LEFTMETA, RIGHTCTRL, RIGHTSHIFT, RIGHTALT, RIGHTMETA.
        expectEqual([29, 42, 56, 125, 97, 54, 100, 126].map { LinuxKeyUsages.usage(forKey: $0)!.usage }, Array(0xE0...0xE7))
        // KEY_F1 … KEY_F12.
        expectEqual(([59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 87, 88] as [UInt16]).map { LinuxKeyUsages.usage(forKey: $0)!.usage }, Array(0x3A...0x45))
    }

    @Test func aRemotesButtonsAreOnTheConsumerPage() {
        #expect(LinuxKeyUsages.usage(forKey: 139)! == (0x0C, 0x40))  // KEY_MENU → .menu
        #expect(LinuxKeyUsages.usage(forKey: 0x160)! == (0x0C, 0x41))  // KEY_OK → .select
        #expect(LinuxKeyUsages.usage(forKey: 0x161)! == (0x0C, 0x41))  // KEY_SELECT → .select
        #expect(LinuxKeyUsages.usage(forKey: 164)! == (0x0C, 0xCD))  // KEY_PLAYPAUSE → .playPause
    }

    @Test func everyKeyboardUsageIsOneUIKitTreatsAsAKeyAndNoTwoKeysShareOne() {
        let usages = (0...LinuxInput.KEY_MAX).compactMap { LinuxKeyUsages.usage(forKey: $0) }.filter { $0.page == 0x07 }.map(\.usage)
        // UIKit's keyboard keys: 0x04–0xA4, 0xB0–0xDD, 0xE0–0xE7.
        #expect(usages.allSatisfy { (0x04...0xA4).contains($0) || (0xB0...0xDD).contains($0) || (0xE0...0xE7).contains($0) })
        expectEqual(Set(usages).count, usages.count)
        #expect(LinuxKeyUsages.usage(forKey: LinuxInput.BTN_LEFT) == nil)
    }

    @Test func modifiersHeldAndCapsLockToggledTravelWithEachKey() {
        var translator = EvdevTranslator(device: .unknown(name: "keyboard"), screen: testScreen)
        let events = translator.translate([
            key(0, 58, 1), syn(0), key(0, 58, 0), syn(0),  // Caps Lock on
            key(1, 29, 1), syn(1), key(1, 56, 1), syn(1), key(1, 30, 1), syn(1),  // Ctrl, Alt, A
            key(2, 30, 0), key(2, 29, 0), key(2, 56, 0), syn(2),
            key(3, 79, 1), syn(3),  // keypad 1
            key(4, 58, 1), syn(4),  // Caps Lock off
        ])
        let flags = buttons(events).map(\.modifierFlags)
        let caps = LinuxKeyUsages.alphaShiftFlag
        let control = LinuxKeyUsages.controlFlag
        let alternate = LinuxKeyUsages.alternateFlag
        #expect(flags == [
            caps, caps,
            caps | control, caps | control | alternate, caps | control | alternate,
            caps | control | alternate, caps | alternate, caps,
            caps | LinuxKeyUsages.numericPadFlag,
            0,
        ])
    }

    @Test func aKeyThatGoesDownTwiceOrHasNoUsageIsReported() {
        var translator = EvdevTranslator(device: .unknown(name: "keyboard"), screen: testScreen)
        let events = translator.translate([
            key(0, 30, 1), syn(0), key(0, 30, 1), syn(0), key(0, 0x2f0, 1), syn(0), key(0, 31, 0), syn(0), key(0, 30, 7), syn(0),
        ])
        expectEqual(buttons(events).count, 1)
        let diagnostics = translator.takeDiagnostics()
        expectEqual(diagnostics.count, 4)
        #expect(diagnostics[0].contains("key 30 went down while down"))
        #expect(diagnostics[1].contains("key code 752 has no USB HID usage"))
        #expect(diagnostics[2].contains("key 31 came up without going down"))
        #expect(diagnostics[3].contains("value 7"))
    }
}
