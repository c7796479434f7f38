from rnwprint.cli import main

raise SystemExit(main())
