"""Business cities of the gazetteer (the table format is in :mod:`geo_data`)."""

from __future__ import annotations

# Capitals and large business cities. Left out: cities whose names are common English words
# ("Nice", "Mobile", "Reading", "Bath", "Split", "Sale", "Orange", "Tours") and names shared by
# two well-known cities in different countries (those are in ``AMBIGUOUS``).
CITIES: dict[str, str] = {
    "US": (
        "New York City|NYC|Manhattan|Brooklyn|Los Angeles|San Francisco|Silicon Valley|Bay Area|"
        "San Francisco Bay Area|San Jose|Palo Alto|Mountain View|Menlo Park|Cupertino|Santa Clara|"
        "Sunnyvale|Redwood City|San Mateo|Oakland|Fremont|Milpitas|Seattle|Redmond|Bellevue|"
        "Portland|Boston|Chicago|Houston|Dallas|Austin|San Antonio|Fort Worth|Plano|Phoenix|Tempe|"
        "Scottsdale|Denver|Atlanta|Miami|Orlando|Tampa|Jacksonville|Charlotte|Raleigh|Nashville|"
        "Memphis|Louisville|Indianapolis|Columbus|Cleveland|Cincinnati|Detroit|Minneapolis|"
        "Saint Paul|Milwaukee|Saint Louis|Kansas City|Omaha|Des Moines|Pittsburgh|Philadelphia|"
        "Baltimore|Washington DC|Washington D.C.|Newark|Jersey City|Hoboken|Stamford|Hartford|"
        "Providence|New Haven|Las Vegas|Salt Lake City|Albuquerque|San Diego|Irvine|Santa Monica|"
        "Sacramento|Honolulu|Anchorage|New Orleans|Oklahoma City|Tulsa|Wilmington|Princeton|"
        "Buffalo|Rochester|Hollywood|Beverly Hills|Boca Raton|Fort Lauderdale|Durham|Chapel Hill|"
        "Research Triangle|Ann Arbor|Madison|Boise|Spokane|Tucson|El Paso|Bentonville|Armonk|"
        "White Plains|Greenwich Connecticut|Wall Street|Arlington|Bethesda|Reston|Akron|"
        "Long Island City|Long Beach|Pasadena|Santa Barbara|Carlsbad|Fort Myers|Sarasota|"
        "Grand Rapids|Cedar Rapids|Waltham|Framingham|The Woodlands|Frisco|Round Rock|"
        "Newport Beach|West Palm Beach|Palm Beach|Coral Gables|Fort Wayne|Lansing|Glendale|"
        "Santa Ana|Anaheim|Fresno|Bakersfield|Beaverton|Bothell|Emeryville|Pleasanton|"
        "San Ramon|Foster City|South San Francisco|Burbank|Torrance|El Segundo|Thousand Oaks|"
        "Los Gatos|Burlington|Chandler|Scranton|Harrisburg|Allentown|Syracuse|Albany|Dayton|"
        "Toledo Ohio|Knoxville|Chattanooga|Birmingham Alabama|Huntsville|Little Rock|Wichita|"
        "Lincoln Nebraska|Sioux Falls|Fargo|Reno|Henderson Nevada|Mesa|Lehi|Provo|Colorado Springs|"
        "Fort Collins|Greensboro|Winston-Salem|Columbia South Carolina|Charleston|Savannah|Tallahassee|"
        "Gainesville|St. Petersburg Florida|Clearwater|Naples Florida|Baton Rouge|Shreveport|"
        "Jackson Mississippi|Lexington|Eden Prairie|Northbrook|Oak Brook|Downers Grove|Lake Forest|"
        "Deerfield|Schaumburg|Naperville|Evanston|Rochester Minnesota|Richfield|Kennesaw|Alpharetta"
    ),
    "CA": (
        "Toronto|Montreal|Montréal|Vancouver|Calgary|Ottawa|Edmonton|Winnipeg|Quebec City|"
        "Mississauga|Waterloo|Kitchener|Halifax|Victoria BC|Regina|Saskatoon"
    ),
    "MX": "Mexico City|Ciudad de Mexico|Monterrey|Guadalajara|Tijuana|Puebla|Cancun|Cancún",
    "BR": (
        "Sao Paulo|São Paulo|Rio de Janeiro|Brasilia|Brasília|Belo Horizonte|Curitiba|Porto Alegre|Recife|"
        "Salvador da Bahia"
    ),
    "AR": "Buenos Aires|Rosario|Mendoza",
    "CL": "Santiago|Valparaiso",
    "PE": "Lima",
    "CO": "Bogota|Bogotá|Medellin|Medellín|Cali|Barranquilla",
    "VE": "Caracas",
    "EC": "Quito|Guayaquil",
    "UY": "Montevideo",
    "PY": "Asuncion|Asunción",
    "BO": "La Paz|Santa Cruz de la Sierra",
    "PA": "Panama City",
    "CR": "San Jose Costa Rica",
    "CU": "Havana",
    "DO": "Santo Domingo",
    "JM": "Kingston",
    "PR": "San Juan",
    "GT": "Guatemala City",
    "SV": "San Salvador",
    "HN": "Tegucigalpa|San Pedro Sula",
    "NI": "Managua",
    "TT": "Port of Spain",
    "BS": "Nassau",
    "BM": "Hamilton Bermuda",
    "KY": "George Town Cayman",
    "GB": (
        "London|City of London|Manchester|Birmingham|Edinburgh|Glasgow|Leeds|Liverpool|Bristol|"
        "Sheffield|Newcastle|Newcastle upon Tyne|Nottingham|Leicester|Southampton|Cardiff|Belfast|"
        "Aberdeen|Cambridge|Oxford|Brighton|Milton Keynes|Slough|Guildford|Coventry|Derby|York|"
        "Canary Wharf|Uxbridge|Luton|Weybridge|Basingstoke|Swindon|Stevenage|Crawley|Croydon|"
        "Watford|Hemel Hempstead|Maidenhead|Bracknell|Farnborough|Chester|Plymouth|Exeter|Norwich|"
        "Ipswich|Dundee|Inverness|Swansea|Portsmouth|Bournemouth|Wolverhampton|Stoke-on-Trent"
    ),
    "IE": "Dublin|Cork|Galway|Limerick|Shannon",
    "FR": (
        "Paris|Lyon|Marseille|Toulouse|Lille|Bordeaux|Nantes|Strasbourg|Montpellier|Rennes|"
        "Grenoble|Courbevoie|La Defense|La Défense|Boulogne-Billancourt|Issy-les-Moulineaux|"
        "Clermont-Ferrand|Rueil-Malmaison|Neuilly-sur-Seine|Saint-Denis|Levallois-Perret|"
        "Puteaux|Nanterre|Sophia Antipolis|Le Havre|Reims|Dijon|Rouen|Toulon|Cannes|Annecy"
    ),
    "DE": (
        "Berlin|Munich|München|Muenchen|Frankfurt|Frankfurt am Main|Hamburg|Cologne|Köln|Koln|"
        "Dusseldorf|Düsseldorf|Duesseldorf|Stuttgart|Dresden|Leipzig|Hanover|Hannover|Nuremberg|"
        "Nürnberg|Nurnberg|Bremen|Essen|Dortmund|Bonn|Mannheim|Karlsruhe|Wolfsburg|Ingolstadt|"
        "Walldorf|Darmstadt|Heidelberg|Bochum|Duisburg|Mainz|Wiesbaden|Augsburg|Regensburg|"
        "Freiburg|Leverkusen|Ludwigshafen|Gütersloh|Gutersloh|Herzogenaurach|Jena|Aachen|Münster|"
        "Bielefeld|Kiel|Rostock|Erlangen|Neubiberg|Grünwald|Lippstadt|Einbeck|Baden-Baden|"
        "Ulm|Kassel|Potsdam|Saarbrücken|Braunschweig|Würzburg|Osnabrück|Paderborn|Krefeld|"
        "Mönchengladbach|Wuppertal|Gelsenkirchen|Oberkochen|Schweinfurt|Friedrichshafen|"
        "Heilbronn|Reutlingen|Göttingen|Oldenburg|Lübeck|Magdeburg|Chemnitz|Halle|Erfurt|"
        "Eschborn|Bad Homburg|Unterföhring|Hanau|Offenbach"
    ),
    "CH": (
        "Zurich|Zürich|Geneva|Genève|Geneve|Genf|Basel|Basle|Bern|Berne|Lausanne|Lucerne|Luzern|"
        "Zug|Lugano|St. Gallen|Sankt Gallen|Winterthur|Schaffhausen|Vevey|Baar|Baden Switzerland|"
        "Neuchâtel|Fribourg|Rapperswil|Greifensee|Allschwil|Rotkreuz"
    ),
    "AT": "Vienna|Wien|Graz|Linz|Salzburg|Innsbruck|Klagenfurt",
    "NL": (
        "Amsterdam|Rotterdam|The Hague|Den Haag|Hague|Utrecht|Eindhoven|Veldhoven|Delft|Leiden|"
        "Groningen|Haarlem|Diemen|Hoofddorp|Nijmegen|Tilburg|Arnhem|Maastricht|Almere|Amstelveen|"
        "Schiphol|Breda|Zwolle|Enschede|Venlo|Heerlen|Den Bosch|'s-Hertogenbosch"
    ),
    "BE": (
        "Brussels|Bruxelles|Brussel|Antwerp|Antwerpen|Ghent|Gent|Liege|Liège|Leuven|Bruges|Brugge|Mechelen|"
        "Charleroi|Namur"
    ),
    "LU": "Luxembourg City",
    "ES": (
        "Madrid|Barcelona|Seville|Sevilla|Bilbao|Valencia|Malaga|Málaga|Zaragoza|Palma|"
        "Palma de Mallorca|Alicante|San Sebastian|Murcia City|Vigo|A Coruña|La Coruña|Arteixo|"
        "Pamplona|Valladolid|Las Palmas|Santander|Alcobendas|Tres Cantos"
    ),
    "PT": "Lisbon|Lisboa|Porto|Oporto|Braga|Coimbra|Faro",
    "IT": (
        "Milan|Milano|Rome|Roma|Turin|Torino|Naples|Napoli|Florence|Firenze|Venice|Venezia|Genoa|"
        "Genova|Bologna|Verona|Brescia|Bergamo|Parma|Modena|Trieste|Padua|Padova|Bari|Palermo|"
        "Catania|Maranello|Ivrea|Vicenza|Treviso|Monza"
    ),
    "SE": (
        "Stockholm|Gothenburg|Göteborg|Goteborg|Malmö|Malmo|Uppsala|Lund|Västerås|Vasteras|Södertälje|"
        "Sodertalje|Sandviken|Solna|Linköping|Helsingborg|Jönköping|Umeå|Kista|Sundbyberg"
    ),
    "NO": "Oslo|Bergen|Trondheim|Stavanger|Lysaker|Fornebu",
    "DK": "Copenhagen|København|Kobenhavn|Aarhus|Århus|Odense|Aalborg|Billund|Bagsværd|Kalundborg|Hellerup",
    "FI": "Helsinki|Espoo|Tampere|Turku|Oulu|Vantaa|Hyvinkää|Jyväskylä|Lahti",
    "IS": "Reykjavik|Reykjavík",
    "PL": (
        "Warsaw|Warszawa|Krakow|Kraków|Cracow|Wroclaw|Wrocław|Gdansk|Gdańsk|Poznan|Poznań|Lodz|Łódź|Katowice|"
        "Szczecin|Gdynia"
    ),
    "CZ": "Prague|Praha|Brno|Ostrava|Plzen|Plzeň|Mlada Boleslav|Mladá Boleslav",
    "SK": "Bratislava|Kosice|Košice",
    "HU": "Budapest|Debrecen|Szeged|Győr",
    "RO": "Bucharest|București|Cluj-Napoca|Cluj|Timisoara|Timișoara|Iasi|Iași|Brasov|Brașov|Constanta",
    "BG": "Sofia|Plovdiv|Varna",
    "GR": "Athens|Thessaloniki|Piraeus|Maroussi|Marousi",
    "CY": "Nicosia|Limassol|Larnaca",
    "MT": "Valletta",
    "SI": "Ljubljana|Maribor",
    "HR": "Zagreb|Rijeka",
    "RS": "Belgrade|Novi Sad",
    "BA": "Sarajevo",
    "ME": "Podgorica",
    "MK": "Skopje",
    "AL": "Tirana",
    "XK": "Pristina",
    "EE": "Tallinn|Tartu",
    "LV": "Riga",
    "LT": "Vilnius|Kaunas",
    "UA": "Kyiv|Kiev|Lviv|Kharkiv|Odesa|Odessa|Dnipro",
    "BY": "Minsk",
    "MD": "Chisinau|Chișinău",
    "RU": (
        "Moscow|Saint Petersburg|St. Petersburg|Novosibirsk|Yekaterinburg|Kazan|Nizhny Novgorod|Vladivostok"
    ),
    "TR": "Istanbul|Ankara|Izmir|İzmir|Bursa|Antalya",
    "GE": "Tbilisi|Batumi",
    "AM": "Yerevan",
    "AZ": "Baku",
    "KZ": "Almaty|Astana|Nur-Sultan",
    "UZ": "Tashkent",
    "TM": "Ashgabat",
    "KG": "Bishkek",
    "TJ": "Dushanbe",
    "MN": "Ulaanbaatar|Ulan Bator",
    "AE": "Dubai|Abu Dhabi|Sharjah|Ajman|Ras Al Khaimah|Jebel Ali",
    "QA": "Doha",
    "SA": "Riyadh|Jeddah|Dammam|Dhahran|Mecca|Medina|NEOM",
    "KW": "Kuwait City",
    "BH": "Manama",
    "OM": "Muscat",
    "YE": "Sanaa|Aden",
    "IL": "Tel Aviv|Jerusalem|Haifa|Herzliya|Petah Tikva|Ra'anana|Rehovot|Beersheba",
    "JO": "Amman",
    "LB": "Beirut",
    "SY": "Damascus|Aleppo",
    "IQ": "Baghdad|Erbil|Basra",
    "IR": "Tehran|Isfahan|Mashhad",
    "EG": "Cairo|Alexandria|Giza",
    "MA": "Casablanca|Rabat|Tangier|Marrakesh|Marrakech",
    "TN": "Tunis",
    "DZ": "Algiers",
    "LY": "Tripoli|Benghazi",
    "NG": "Lagos|Abuja|Port Harcourt|Kano",
    "GH": "Accra|Kumasi",
    "KE": "Nairobi|Mombasa",
    "ET": "Addis Ababa",
    "UG": "Kampala",
    "TZ": "Dar es Salaam|Dodoma",
    "RW": "Kigali",
    "ZA": "Johannesburg|Cape Town|Durban|Pretoria|Sandton|Port Elizabeth|Stellenbosch",
    "AO": "Luanda",
    "CD": "Kinshasa",
    "CG": "Brazzaville",
    "SN": "Dakar",
    "CI": "Abidjan",
    "ZW": "Harare",
    "ZM": "Lusaka",
    "MZ": "Maputo",
    "BW": "Gaborone",
    "NA": "Windhoek",
    "CM": "Douala|Yaounde|Yaoundé",
    "SD": "Khartoum",
    "MU": "Port Louis",
    "MG": "Antananarivo",
    "JP": (
        "Tokyo|Osaka|Nagoya|Yokohama|Kyoto|Kobe|Fukuoka|Sapporo|Sendai|Hiroshima|Kawasaki|"
        "Kitakyushu|Hamamatsu|Chiyoda|Minato-ku|Shinjuku|Shibuya|Marunouchi|Otemachi|Ōtemachi|"
        "Nihonbashi|Kariya|Kadoma|Otsu|Ōtsu|Kanazawa|Okayama City|Kumamoto City|Niigata City|"
        "Tsukuba|Naha|Takamatsu|Matsuyama|Utsunomiya|Chiba City|Saitama City|Minato|Chuo|Chūō|"
        "Chuo-ku|Chiyoda-ku|Shinjuku-ku|Shibuya-ku|Shinagawa|Shinagawa-ku|Ginza|Umeda|Nakanoshima|"
        "Toranomon|Akasaka|Roppongi|Shiodome|Hiratsuka|Toyota City|Urayasu|Iwata|Hamamatsucho"
    ),
    "KR": "Seoul|Busan|Pusan|Incheon|Suwon|Daejeon|Daegu|Pangyo|Seongnam|Ulsan|Gwangju|Pohang|Changwon",
    "KP": "Pyongyang",
    "CN": (
        "Beijing|Peking|Shanghai|Shenzhen|Guangzhou|Hangzhou|Suzhou|Chengdu|Wuhan|Nanjing|Tianjin|"
        "Chongqing|Xi'an|Xian|Changsha|Zhengzhou|Qingdao|Dalian|Ningbo|Xiamen|Fuzhou|Hefei|Jinan|"
        "Shenyang|Harbin|Kunming|Wuxi|Dongguan|Foshan|Zhuhai|Changzhou|Yiwu|Wenzhou|Quanzhou|"
        "Nantong|Changchun|Shijiazhuang|Taiyuan|Nanchang|Guiyang|Nanning|Lanzhou|Urumqi|Hohhot|"
        "Haikou|Sanya|Yantai|Tangshan|Huizhou|Jiaxing|Shaoxing|Xuzhou|Zhongshan|Wuhu|Zibo|Weifang"
    ),
    "HK": "Kowloon|Tsim Sha Tsui|Central Hong Kong",
    "TW": "Taipei|Hsinchu|Taichung|Kaohsiung|Tainan|Taoyuan|New Taipei",
    "SG": "Jurong|Changi|Serangoon",
    "MY": "Kuala Lumpur|Penang|Johor Bahru|Putrajaya|Cyberjaya|Petaling Jaya|Shah Alam|Kuching|Kota Kinabalu",
    "TH": "Bangkok|Chiang Mai|Pattaya|Phuket",
    "ID": "Jakarta|Surabaya|Bandung|Medan|Batam|Semarang",
    "PH": "Manila|Makati|Cebu|Quezon City|Taguig|Pasig|Davao",
    "VN": "Hanoi|Ha Noi|Ho Chi Minh City|Saigon|Da Nang|Haiphong|Hai Phong",
    "KH": "Phnom Penh",
    "MM": "Yangon|Rangoon|Naypyidaw",
    "LA": "Vientiane",
    "BN": "Bandar Seri Begawan",
    "IN": (
        "Mumbai|Bombay|Delhi|New Delhi|Bangalore|Bengaluru|Chennai|Madras|Hyderabad|Kolkata|"
        "Calcutta|Pune|Ahmedabad|Gurgaon|Gurugram|Noida|Jaipur|Chandigarh|Kochi|Cochin|Coimbatore|"
        "Indore|Lucknow|Nagpur|Surat|Vadodara|Visakhapatnam|Thiruvananthapuram|Navi Mumbai|Thane"
    ),
    "PK": "Karachi|Lahore|Islamabad|Faisalabad|Rawalpindi",
    "BD": "Dhaka|Chittagong",
    "LK": "Colombo",
    "NP": "Kathmandu",
    "AF": "Kabul",
    "AU": "Sydney|Melbourne|Brisbane|Perth|Adelaide|Canberra|Gold Coast|Hobart|Darwin|Newcastle NSW",
    "NZ": "Auckland|Wellington|Christchurch|Hamilton New Zealand|Dunedin",
    "FJ": "Suva",
    "PG": "Port Moresby",
}
