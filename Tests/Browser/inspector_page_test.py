#!/usr/bin/env python3
"""The inspector's page in a real browser (headless Chromium driven by Selenium).

Starts `openuikit inspect seed-b-traced-hierarchy --port 0`, opens the page,
clicks the red view in the screen picture, and checks in the page's DOM the
hit-test walk (the article's order: yellow refuses, light grey accepts,
green refuses, red accepts), the view found, the responder chain from red
up to the application, and that red received touchesBegan and
touchesEnded (the records the application's window makes as it calls
them). Saves a screenshot of the page.

    Tests/Browser/inspector_page_test.py OPENUIKIT_BINARY SCREENSHOT.png

Exits non-zero, saying why, if anything fails or cannot run.
"""
import os
import re
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from inspector_page import touch_panel


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def start_inspector(binary):
    process = subprocess.Popen(
        [binary, "inspect", "seed-b-traced-hierarchy", "--port", "0", "--seconds", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        match = re.search(r"http://[^ ]+/", line)
        if match:
            return process, match.group(0)
    process.kill()
    fail(f"the inspector printed no address: {process.stderr.read()}")


def main():
    if len(sys.argv) != 3:
        fail("usage: inspector_page_test.py OPENUIKIT_BINARY SCREENSHOT.png")
    binary, screenshot = sys.argv[1], sys.argv[2]
    process, url = start_inspector(binary)
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1300"]:
        options.add_argument(argument)
    chromium = "/usr/bin/chromium"
    if os.path.exists(chromium):
        options.binary_location = chromium
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(url)
        wait = WebDriverWait(driver, 20)
        wait.until(lambda d: d.find_element(By.ID, "status").text == "live")
        # The first frame, and the tree with red in it.
        wait.until(lambda d: d.execute_script("return document.getElementById('screen').naturalWidth") > 0)
        wait.until(lambda d: any(row.text.startswith('UIView “red”') for row in d.find_elements(By.CSS_SELECTOR, "#tree .row")))

        def pointer_at(x, y, click=False):
            """Moves the mouse to screen point (x, y) of the picture, in the viewport's coordinates."""
            left, top, scale = driver.execute_script(
                "const r = document.getElementById('screen').getBoundingClientRect();"
                "return [r.left, r.top, r.width / state.screen.width];")
            actions = ActionBuilder(driver)
            actions.pointer_action.move_to_location(int(left + x * scale), int(top + y * scale))
            if click:
                actions.pointer_action.click()
            actions.perform()

        # Red is (33,147,196,100) on the screen; (120,190) is on it, away
        # from green and from the marker of the article's tap.
        x, y = 120, 190
        pointer_at(x, y, click=True)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#methods li[data-phase='ended']")) > 0)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#chain li")) > 0)

        panel = touch_panel(driver)
        walk, chain, delivered = panel["walk"], panel["chain"], panel["delivered"]
        expected_walk = [("UIWindow", "accepted"), ("the tap", "refused"), ("yellow", "refused"),
                         ("light grey", "accepted"), ("green", "refused"), ("red", "accepted")]
        # Labels in front of everything are asked first: keep the views the article names and the window.
        named = [entry for entry in walk if entry[0] in {"UIWindow", "the tap", "yellow", "light grey", "green", "red"}]
        if named != expected_walk:
            fail(f"hit-test walk in the page: {walk}, expected (among these views) {expected_walk}")
        if panel["found"] != "red":
            fail(f"the view found is {panel['found']!r}, not red")
        if chain != ["red", "light grey", "UIWindow", "UIApplication"]:
            fail(f"responder chain in the page: {chain}")
        if delivered != [("red", "began"), ("red", "ended")]:
            fail(f"touch methods the application called: {delivered}, expected red's touchesBegan and touchesEnded")
        # Step the timeline back to the first record: the page stays responsive.
        driver.find_element(By.ID, "step-back").click()
        # Hovering picks the view under the pointer: yellow, at (100, 350).
        pointer_at(100, 350)
        wait.until(lambda d: "yellow" in " ".join(row.text for row in d.find_elements(By.CSS_SELECTOR, "#tree .row.hover")))
        # Hover red again for the picture, with its walk drawn.
        pointer_at(x, y)
        time.sleep(0.2)
        driver.save_screenshot(screenshot)
        print(f"ok: walk {[entry[0] for entry in walk]}, chain {chain}, delivered {delivered}; screenshot {screenshot}")
    finally:
        driver.quit()
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
    if process.returncode not in (0, -15):
        fail(f"the inspector exited with {process.returncode}: {process.stderr.read()}")


if __name__ == "__main__":
    main()
