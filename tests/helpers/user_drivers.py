"""A user driver (a counter) whose code the devices follow, for managers/test_user_drivers.py and
tools/test_user_driver_devices.py.
"""

from __future__ import annotations

COUNTER = """metadata {
    definition(name: "Tap Counter", namespace: "home", author: "me") {
        capability "Actuator"
        attribute "counter", "number"
        command "increment"
        command "reset"
        command "setCounter", ["NUMBER"]
        command "setMood", [[name: "mood*", type: "ENUM", constraints: ["calm", "busy"]]]
    }
    preferences {
        input name: "step", type: "number", title: "Step", defaultValue: 1
        input "flavor", "enum", title: "Flavor", options: ["plain", "fancy"], defaultValue: "plain"
    }
}

def increment() {
    if (logEnable) log.debug "increment"
    sendEvent(name: "counter", value: (device.currentValue("counter") ?: 0) + step)
}

def reset() {
    sendEvent(name: "counter", value: 0)
}

def setCounter(value) {
    sendEvent(name: "counter", value: value as Integer)
}

def setMood(mood) {
    runIn(5, "reset")
}
"""
