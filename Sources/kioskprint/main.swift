print("kioskprint")
