"""The docked panel, split by concern (stdlib + pya only).

- ``panel``: the dock, its arrangement, the status line, busy state and the routing of engine events
- ``request``: prompt, mode, Send / Stop, prompt history, feedback, the transcript
- ``script``: the Script and Picture tabs, the actions on the script, pictures, reports, the session macro
- ``macro``: the Macro IDE's explain / fix and the Change tab
- ``settings``: the settings dialog's button and the external-agents switch
"""
