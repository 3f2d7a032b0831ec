from campaign.cli import main

main()
