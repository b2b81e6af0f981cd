print("wopi-host")
