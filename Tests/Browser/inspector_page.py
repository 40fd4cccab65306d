"""The browser tests' shared parts: a headless Chromium, and what the inspector's page
shows of the chosen touch, read from its DOM."""
import os

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def headless_chromium(width, height):
    """Debian's Chromium, headless, through its chromedriver, with a window of width × height."""
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}"]:
        options.add_argument(argument)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def touch_panel(driver):
    """The chosen touch's hit-test walk [(view, "accepted" or "refused")], the view found,
    the responder chain and the touch methods called [(view, phase)], as the page shows them."""
    return {
        "walk": [(item.get_attribute("data-view"), item.get_attribute("class"))
                 for item in driver.find_elements(By.CSS_SELECTOR, "#walk li")],
        "found": driver.find_element(By.ID, "found").get_attribute("data-view"),
        "chain": [item.get_attribute("data-responder") for item in driver.find_elements(By.CSS_SELECTOR, "#chain li")],
        "delivered": [(item.get_attribute("data-view"), item.get_attribute("data-phase"))
                      for item in driver.find_elements(By.CSS_SELECTOR, "#methods li[data-phase]")],
    }
